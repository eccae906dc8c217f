-- Execution episodes (SPEC §8): the durable open/close record of each episode. The live board
-- (holder, detached-since) is in memory only. close_reason tells a deliberate end ('closed' by the
-- client, 'shutdown' of the broker) from an interrupted one ('expired': the reaper closed it after
-- the client stayed away longer than the reattach grace). A row with closed_at NULL is open; at most
-- one open row per external_id. Times are epoch milliseconds (UTC).

CREATE TABLE episode (
    id            TEXT    PRIMARY KEY,
    external_id   TEXT    NOT NULL CHECK (length(external_id) BETWEEN 1 AND 256),
    opened_at     INTEGER NOT NULL,
    closed_at     INTEGER,
    close_reason  TEXT    CHECK (close_reason IN ('closed', 'expired', 'shutdown')),
    attachments   INTEGER NOT NULL CHECK (attachments >= 1),
    last_activity INTEGER NOT NULL,
    CHECK ((closed_at IS NULL) = (close_reason IS NULL))
) STRICT;

CREATE UNIQUE INDEX episode_open_by_external_id ON episode (external_id) WHERE closed_at IS NULL;
CREATE INDEX episode_by_closed_at ON episode (closed_at) WHERE closed_at IS NOT NULL;
