-- The browser (issue 15): origins the admin approved per project (lomi_browser_open on a new origin
-- waits for that approval; `browser origins revoke` removes one), and a panel kind 'browser'.
-- A browser panel's live generation is not stored: browsers do not survive a restart.

CREATE TABLE browser_origin (
    project_id  TEXT    NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    origin      TEXT    NOT NULL CHECK (length(origin) BETWEEN 1 AND 2048),
    approved_at INTEGER NOT NULL,
    approved_by TEXT    NOT NULL,
    PRIMARY KEY (project_id, origin)
) STRICT;

-- SQLite cannot change a CHECK constraint in place, so the panel table is rebuilt (as in V6).
CREATE TABLE panel_v8 (
    id                  TEXT    PRIMARY KEY,
    workspace_id        TEXT    NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
    kind                TEXT    NOT NULL CHECK (kind IN ('scratch', 'terminal', 'editor', 'git', 'browser')),
    title               TEXT    NOT NULL,
    terminal_session_id TEXT,
    owner_session       TEXT,
    profile             TEXT,
    cwd                 TEXT,
    document_id         TEXT,
    created_at          INTEGER NOT NULL,
    view                TEXT    CHECK ((kind = 'git') = (view IS NOT NULL))
) STRICT;

INSERT INTO panel_v8 (id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at, view)
    SELECT id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at, view FROM panel;

DROP TABLE panel;

ALTER TABLE panel_v8 RENAME TO panel;
