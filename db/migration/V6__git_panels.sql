-- Git views (lomi_git_open): a panel kind 'git' showing one read-only diff or commit; `view` holds
-- its canonical JSON ({"type":"diff","relativePath":...,"staged":...} or {"type":"commit","commit":...}).
-- SQLite cannot change a CHECK constraint in place, so the panel table is rebuilt.

CREATE TABLE panel_v6 (
    id                  TEXT    PRIMARY KEY,
    workspace_id        TEXT    NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
    kind                TEXT    NOT NULL CHECK (kind IN ('scratch', 'terminal', 'editor', 'git')),
    title               TEXT    NOT NULL,
    terminal_session_id TEXT,
    owner_session       TEXT,
    profile             TEXT,
    cwd                 TEXT,
    document_id         TEXT,
    created_at          INTEGER NOT NULL,
    view                TEXT    CHECK ((kind = 'git') = (view IS NOT NULL))
) STRICT;

INSERT INTO panel_v6 (id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at)
    SELECT id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at FROM panel;

DROP TABLE panel;

ALTER TABLE panel_v6 RENAME TO panel;
