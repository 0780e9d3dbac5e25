# PostgreSQL 15 under Patroni, both Debian bookworm's packages (as bench/failover.py runs them).
# Build from the repository root: docker build -f deploy/ha/patroni.Dockerfile -t cya-patroni .
FROM debian:bookworm-slim

# Patroni makes the cluster itself: no default one from the package.
RUN mkdir -p /etc/postgresql-common \
    && echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf \
    && apt-get update \
    && apt-get install -y --no-install-recommends patroni postgresql-15 \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/lib/postgresql/data /archive \
    && chown -R postgres:postgres /var/lib/postgresql /archive
COPY deploy/ha/patroni.yml /etc/patroni/patroni.yml
COPY deploy/ha/post_bootstrap.sh /etc/patroni/post_bootstrap.sh
USER postgres
EXPOSE 5432 8008
CMD ["patroni", "/etc/patroni/patroni.yml"]
