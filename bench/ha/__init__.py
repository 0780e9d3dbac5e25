"""The production shape with no single host whose loss stops play (`bench/failover.py`):
PostgreSQL under Patroni with a synchronous standby behind HAProxy, Redis with a replica and
three Sentinels, the service's processes on both, and the clients that judge a failover."""
