-- Until when an account has an event stream open (in any instance), renewed by its streams
-- while they last. A write notifies the streams' listeners only for accounts whose lease holds:
-- a transaction that notifies holds one lock of the whole cluster from its commit's start
-- until the commit is on disk, so every turn that notified waited for the disk writes of the
-- others one by one, though most players follow by mail and no stream listened (`bench_submit`,
-- README). The writer reads the lease in the counters row it updates, under that row's lock:
-- a stream that takes its lease before reading its log misses nothing.
ALTER TABLE account_event_counters ADD COLUMN streaming_until timestamptz;
