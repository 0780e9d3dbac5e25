"""RQ workers: the job functions (`jobs`), the sweeper (`sweeper`) and `cya worker` (`main`)."""
