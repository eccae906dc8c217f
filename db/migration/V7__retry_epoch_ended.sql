-- Issue 19: a retry epoch stops being usable when its connection ends, not only after 24 hours or a
-- broker restart. The broker records that moment (when it settles the ended session's work), so the
-- admin's purge can free the settled receipts of ended connections the same day. NULL: the
-- connection was live when last seen by the run that issued the epoch.
ALTER TABLE retry_epoch ADD COLUMN ended_at INTEGER;
