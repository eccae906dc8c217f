-- Shared chat conversations and model connections (issue 16, SPEC §10 Chat).
--
-- chat_connection: the admin's model connections. The API key itself is never stored: only the name
-- of the environment variable or the path of the 0600 file it is read from when a request starts.
CREATE TABLE chat_connection (
    id                TEXT    PRIMARY KEY,
    kind              TEXT    NOT NULL CHECK (kind IN ('openai', 'anthropic')),
    base_url          TEXT    NOT NULL,
    model             TEXT    NOT NULL,
    api_key_env       TEXT,
    api_key_file      TEXT,
    max_output_tokens INTEGER NOT NULL CHECK (max_output_tokens BETWEEN 1 AND 1048576),
    created_at        INTEGER NOT NULL,
    CHECK (api_key_env IS NULL OR api_key_file IS NULL)
) STRICT;

-- One conversation of a project. revision is the conversationRevision counter (every message change
-- moves it); draft_revision the draftRevision counter (every draft change moves it). connection_id and
-- model: the send target last used (NULL: none yet). tools: whether its model may use tools (Chat AI).
CREATE TABLE chat_conversation (
    id             TEXT    PRIMARY KEY,
    project_id     TEXT    NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    title          TEXT    NOT NULL,
    revision       INTEGER NOT NULL CHECK (revision >= 1),
    draft          TEXT    NOT NULL DEFAULT '',
    draft_revision INTEGER NOT NULL CHECK (draft_revision >= 1),
    connection_id  TEXT,
    model          TEXT,
    tools          INTEGER NOT NULL DEFAULT 0 CHECK (tools IN (0, 1)),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
) STRICT;

-- The messages, in order. An assistant message is the checkpoint of a reply: its content is what was
-- persisted of the stream so far, status says whether the reply is still streaming or how it ended.
-- request_id names the provider request that produced it (lomi_chat_stop stops exactly that one).
CREATE TABLE chat_message (
    id              TEXT    PRIMARY KEY,
    conversation_id TEXT    NOT NULL REFERENCES chat_conversation (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    parent_id       TEXT,
    role            TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
    status          TEXT    NOT NULL CHECK (status IN ('complete', 'streaming', 'stopped', 'failed', 'interrupted')),
    content         TEXT    NOT NULL,
    connection_id   TEXT,
    model           TEXT,
    request_id      TEXT,
    error           TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    UNIQUE (conversation_id, seq)
) STRICT;

CREATE INDEX chat_message_request ON chat_message (request_id);

-- Who a conversation is shared with: a client label (every session the admin approved for that
-- client) or one live session id. A conversation an agent created is shared with its session.
CREATE TABLE chat_share (
    conversation_id TEXT NOT NULL REFERENCES chat_conversation (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL CHECK (kind IN ('client', 'session')),
    value           TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    PRIMARY KEY (conversation_id, kind, value)
) STRICT;

-- Chat panels: the panel table gains the kind 'chat' (its view: {"type":"chat","conversationId":…}).
-- SQLite cannot change a CHECK constraint in place, so the table is rebuilt with every column it has (the
-- same columns as V6 and V8; 'browser' is V8's kind, listed here so that V9 keeps it).
CREATE TABLE panel_v9 (
    id                  TEXT    PRIMARY KEY,
    workspace_id        TEXT    NOT NULL REFERENCES workspace (id) ON DELETE CASCADE,
    kind                TEXT    NOT NULL CHECK (kind IN ('scratch', 'terminal', 'editor', 'git', 'browser', 'chat')),
    title               TEXT    NOT NULL,
    terminal_session_id TEXT,
    owner_session       TEXT,
    profile             TEXT,
    cwd                 TEXT,
    document_id         TEXT,
    created_at          INTEGER NOT NULL,
    view                TEXT    CHECK ((kind IN ('git', 'chat')) = (view IS NOT NULL))
) STRICT;

INSERT INTO panel_v9 (id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at, view)
    SELECT id, workspace_id, kind, title, terminal_session_id, owner_session, profile, cwd, document_id, created_at, view FROM panel;

DROP TABLE panel;

ALTER TABLE panel_v9 RENAME TO panel;
