package dev.lomicontrol.chat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.ledger.Ledger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The durable conversations (tables {@code chat_conversation}, {@code chat_message},
 * {@code chat_share}). Every change runs in the ledger's single writer; the compare-and-set changes
 * ({@link #setDraft}, {@link #beginSend}) check {@code draftRevision} and {@code conversationRevision}
 * in the same transaction, so a stale revision changes nothing (REVISION_CONFLICT).
 */
public final class Conversations {

    /** A draft holds at most 32 KiB of UTF-8. */
    public static final int MAX_DRAFT_BYTES = 32 * 1024;
    /** At most this many conversations are listed to one connection. */
    public static final int MAX_SHARED = 64;

    private final Ledger store;
    private final Clock clock;
    private final RandomGenerator random;

    public Conversations(Ledger store, Clock clock, RandomGenerator random) {
        this.store = store;
        this.clock = clock;
        this.random = random;
    }

    /** Who a conversation is shared with: every session of a client label, or one session. */
    public record Share(String kind, String value) {
        public static Share client(String label) {
            return new Share("client", label);
        }

        public static Share session(String sessionId) {
            return new Share("session", sessionId);
        }
    }

    /** A new, empty conversation of {@code project}, shared with {@code sharedWith} (if any). */
    public Conversation create(ProjectId project, String title, Optional<Share> sharedWith) {
        if (title.isEmpty() || title.length() > 256 || title.chars().anyMatch(Character::isISOControl)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a chat title is 1-256 characters without control characters");
        }
        String id = "chat-" + Ids.randomHex(random, 8);
        return store.write(c -> {
            long now = clock.millis();
            update(c, "INSERT INTO chat_conversation (id, project_id, title, revision, draft, draft_revision, created_at, updated_at)"
                    + " VALUES (?, ?, ?, 1, '', 1, ?, ?)", id, project.value(), title, now, now);
            if (sharedWith.isPresent()) {
                share(c, id, sharedWith.get());
            }
            return load(c, id).orElseThrow();
        });
    }

    public Optional<Conversation> find(String id) {
        return store.read(c -> load(c, id));
    }

    /** Every conversation (of one project, when given), oldest first. */
    public List<Conversation> list(Optional<ProjectId> project) {
        return store.read(c -> {
            List<Conversation> all = new ArrayList<>();
            String sql = SELECT + (project.isPresent() ? " WHERE project_id = ?" : "") + " ORDER BY created_at, id";
            try (PreparedStatement s = c.prepareStatement(sql)) {
                if (project.isPresent()) {
                    s.setString(1, project.get().value());
                }
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        all.add(row(rs));
                    }
                }
            }
            return all;
        });
    }

    /** The conversations of {@code project} shared with this client label or session, oldest first, at most 64. */
    public List<Conversation> sharedWith(ProjectId project, String clientLabel, String sessionId) {
        return store.read(c -> {
            List<Conversation> shared = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement(SELECT + " WHERE project_id = ? AND id IN (SELECT conversation_id FROM chat_share"
                    + " WHERE (kind = 'client' AND value = ?) OR (kind = 'session' AND value = ?)) ORDER BY created_at, id LIMIT " + MAX_SHARED)) {
                s.setString(1, project.value());
                s.setString(2, clientLabel);
                s.setString(3, sessionId);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        shared.add(row(rs));
                    }
                }
            }
            return shared;
        });
    }

    /** Whether the conversation is shared with this client label or session. */
    public boolean isShared(String conversationId, String clientLabel, String sessionId) {
        return store.read(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM chat_share WHERE conversation_id = ? AND ((kind = 'client' AND value = ?)"
                    + " OR (kind = 'session' AND value = ?))")) {
                s.setString(1, conversationId);
                s.setString(2, clientLabel);
                s.setString(3, sessionId);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    public List<Share> shares(String conversationId) {
        return store.read(c -> {
            List<Share> all = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT kind, value FROM chat_share WHERE conversation_id = ? ORDER BY kind, value")) {
                s.setString(1, conversationId);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        all.add(new Share(rs.getString(1), rs.getString(2)));
                    }
                }
            }
            return all;
        });
    }

    /** Shares (or, with {@code revoke}, stops sharing) a conversation; TARGET_NOT_FOUND for an unknown one. */
    public void share(String conversationId, Share share, boolean revoke) {
        store.write(c -> {
            require(c, conversationId);
            if (revoke) {
                update(c, "DELETE FROM chat_share WHERE conversation_id = ? AND kind = ? AND value = ?", conversationId, share.kind(), share.value());
            } else {
                share(c, conversationId, share);
            }
            return null;
        });
    }

    /** Lets the conversation's model use the broker's tools (the built-in Chat AI), or stops it; TARGET_NOT_FOUND for an unknown one. */
    public void setTools(String conversationId, boolean tools) {
        store.write(c -> {
            require(c, conversationId);
            return update(c, "UPDATE chat_conversation SET tools = ?, updated_at = ? WHERE id = ?", tools ? 1 : 0, clock.millis(), conversationId);
        });
    }

    public List<ChatMessage> messages(String conversationId) {
        return store.read(c -> messages(c, conversationId));
    }

    public Optional<ChatMessage> message(String messageId) {
        return store.read(c -> {
            try (PreparedStatement s = c.prepareStatement(MESSAGE + " WHERE id = ?")) {
                s.setString(1, messageId);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? Optional.of(message(rs)) : Optional.empty();
                }
            }
        });
    }

    /** The assistant message a provider request produced. */
    public Optional<ChatMessage> byRequest(String conversationId, String requestId) {
        return messages(conversationId).stream().filter(m -> m.requestId().filter(requestId::equals).isPresent()).findFirst();
    }

    /**
     * Replaces the draft compare-and-set: both revisions must be current, else REVISION_CONFLICT and
     * nothing changes; more than 32 KiB of UTF-8 is INVALID_ARGUMENT. The draft revision moves.
     */
    public Conversation setDraft(String conversationId, String text, String expectedDraftRevision, String expectedConversationRevision) {
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_DRAFT_BYTES) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a draft holds at most 32 KiB of UTF-8");
        }
        return store.write(c -> {
            Conversation current = require(c, conversationId);
            requireRevisions(current, expectedDraftRevision, expectedConversationRevision);
            update(c, "UPDATE chat_conversation SET draft = ?, draft_revision = draft_revision + 1, updated_at = ? WHERE id = ?", text,
                    clock.millis(), conversationId);
            return load(c, conversationId).orElseThrow();
        });
    }

    /** What a send persisted: the conversation after it, the user message (the draft) and the streaming assistant message. */
    public record Sending(Conversation conversation, ChatMessage user, ChatMessage assistant) {}

    /**
     * Starts a send of the exact persisted draft, compare-and-set on both revisions: the draft becomes
     * a user message, an empty assistant message starts {@code streaming} under {@code requestId}, the
     * draft is cleared (draftRevision moves) and conversationRevision moves. REVISION_CONFLICT when a
     * revision is stale, INVALID_ARGUMENT for an empty draft, TARGET_BUSY while a reply streams.
     */
    public Sending beginSend(String conversationId, String expectedDraftRevision, String expectedConversationRevision, String connectionId,
            String model, String requestId) {
        return store.write(c -> {
            Conversation current = require(c, conversationId);
            requireRevisions(current, expectedDraftRevision, expectedConversationRevision);
            requireSendable(c, current);
            String user = insertMessage(c, conversationId, "user", "complete", current.draft(), Optional.empty(), Optional.empty(), Optional.empty());
            String assistant = insertMessage(c, conversationId, "assistant", "streaming", "", Optional.of(connectionId), Optional.of(model),
                    Optional.of(requestId));
            update(c, "UPDATE chat_conversation SET draft = '', draft_revision = draft_revision + 1, revision = revision + 1, connection_id = ?,"
                    + " model = ?, updated_at = ? WHERE id = ?", connectionId, model, clock.millis(), conversationId);
            return new Sending(load(c, conversationId).orElseThrow(), messageIn(c, user), messageIn(c, assistant));
        });
    }

    /**
     * The admin's own message ({@code chat say}): appended as a user message at once, no approval;
     * with a connection, an assistant message starts {@code streaming} for its reply. TARGET_BUSY while a reply streams.
     */
    public Sending say(String conversationId, String text, Optional<String> connectionId, Optional<String> model, Optional<String> requestId) {
        if (text.isEmpty() || text.getBytes(StandardCharsets.UTF_8).length > MAX_DRAFT_BYTES) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a message is 1 byte to 32 KiB of UTF-8");
        }
        return store.write(c -> {
            Conversation current = require(c, conversationId);
            requireIdle(c, current);
            String user = insertMessage(c, conversationId, "user", "complete", text, Optional.empty(), Optional.empty(), Optional.empty());
            Optional<String> assistant = Optional.empty();
            if (connectionId.isPresent()) {
                assistant = Optional.of(insertMessage(c, conversationId, "assistant", "streaming", "", connectionId, model, requestId));
            }
            update(c, "UPDATE chat_conversation SET revision = revision + 1, connection_id = COALESCE(?, connection_id), model = COALESCE(?, model),"
                    + " updated_at = ? WHERE id = ?", connectionId.orElse(null), model.orElse(null), clock.millis(), conversationId);
            ChatMessage reply = assistant.isPresent() ? messageIn(c, assistant.get()) : null;
            return new Sending(load(c, conversationId).orElseThrow(), messageIn(c, user), reply);
        });
    }

    /** Saves what arrived of a streaming reply so far (its checkpoint); a reply that already ended is left alone. */
    public void checkpoint(String messageId, String content) {
        store.write(c -> update(c, "UPDATE chat_message SET content = ?, updated_at = ? WHERE id = ? AND status = 'streaming'", content,
                clock.millis(), messageId));
    }

    /** Ends a streaming reply with its final text and status; conversationRevision moves. False when it had already ended. */
    public boolean finish(String messageId, String status, String content, Optional<String> error) {
        return store.write(c -> {
            int changed = update(c, "UPDATE chat_message SET content = ?, status = ?, error = ?, updated_at = ? WHERE id = ? AND status = 'streaming'",
                    content, status, error.orElse(null), clock.millis(), messageId);
            if (changed == 1) {
                update(c, "UPDATE chat_conversation SET revision = revision + 1, updated_at = ? WHERE id = (SELECT conversation_id FROM chat_message"
                        + " WHERE id = ?)", clock.millis(), messageId);
            }
            return changed == 1;
        });
    }

    /** At start-up: replies that were streaming when the broker stopped end {@code interrupted} (never resumed). */
    public int interruptStreaming() {
        return store.write(c -> {
            int changed = update(c, "UPDATE chat_message SET status = 'interrupted', error = 'the broker stopped while the reply streamed',"
                    + " updated_at = ? WHERE status = 'streaming'", clock.millis());
            if (changed > 0) {
                update(c, "UPDATE chat_conversation SET revision = revision + 1 WHERE id IN (SELECT conversation_id FROM chat_message"
                        + " WHERE status = 'interrupted' AND updated_at = ?)", clock.millis());
            }
            return changed;
        });
    }

    // ------------------------------------------------------------------ internals

    private void requireRevisions(Conversation current, String expectedDraftRevision, String expectedConversationRevision) {
        if (!current.draftRevisionToken().equals(expectedDraftRevision)) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "the draft of " + current.id() + " is at " + current.draftRevisionToken() + ", not "
                    + expectedDraftRevision + "; read it again");
        }
        if (!current.conversationRevision().equals(expectedConversationRevision)) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "conversation " + current.id() + " is at " + current.conversationRevision()
                    + ", not " + expectedConversationRevision + "; read it again");
        }
    }

    /** The checks a send needs besides the revisions (also run at admission, before anything is reserved). */
    public void requireSendable(String conversationId) {
        store.read(c -> {
            requireSendable(c, require(c, conversationId));
            return null;
        });
    }

    private void requireSendable(Connection c, Conversation current) throws SQLException {
        if (current.draft().isEmpty()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the draft of " + current.id() + " is empty; there is nothing to send");
        }
        requireIdle(c, current);
    }

    private void requireIdle(Connection c, Conversation current) throws SQLException {
        for (ChatMessage message : messages(c, current.id())) {
            if (message.streaming()) {
                throw new LomiException(ErrorCode.TARGET_BUSY, "a reply is still streaming in " + current.id() + " (request "
                        + message.requestId().orElse("?") + "); stop it or wait");
            }
        }
    }

    private String insertMessage(Connection c, String conversationId, String role, String status, String content, Optional<String> connectionId,
            Optional<String> model, Optional<String> requestId) throws SQLException {
        String id = "msg-" + Ids.randomHex(random, 8);
        long seq;
        Optional<String> parent;
        try (PreparedStatement s = c.prepareStatement("SELECT seq, id FROM chat_message WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1")) {
            s.setString(1, conversationId);
            try (ResultSet rs = s.executeQuery()) {
                seq = rs.next() ? rs.getLong(1) + 1 : 1;
                parent = seq == 1 ? Optional.empty() : Optional.of(rs.getString(2));
            }
        }
        long now = clock.millis();
        update(c, "INSERT INTO chat_message (id, conversation_id, seq, parent_id, role, status, content, connection_id, model, request_id,"
                + " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", id, conversationId, seq, parent.orElse(null), role, status,
                content, connectionId.orElse(null), model.orElse(null), requestId.orElse(null), now, now);
        return id;
    }

    private void share(Connection c, String conversationId, Share share) throws SQLException {
        if (!share.kind().equals("client") && !share.kind().equals("session") || share.value().isEmpty() || share.value().length() > 256) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "share with --client LABEL or --session ID");
        }
        update(c, "INSERT INTO chat_share (conversation_id, kind, value, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", conversationId,
                share.kind(), share.value(), clock.millis());
    }

    private static Conversation require(Connection c, String id) throws SQLException {
        return load(c, id).orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no conversation " + id));
    }

    private static final String SELECT = "SELECT id, project_id, title, revision, draft, draft_revision, connection_id, model, created_at, updated_at, tools"
            + " FROM chat_conversation";
    private static final String MESSAGE = "SELECT id, conversation_id, seq, parent_id, role, status, content, connection_id, model, request_id,"
            + " error, created_at, updated_at FROM chat_message";

    private static Optional<Conversation> load(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(SELECT + " WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    private static Conversation row(ResultSet rs) throws SQLException {
        return new Conversation(rs.getString(1), new ProjectId(rs.getString(2)), rs.getString(3), rs.getLong(4), rs.getString(5), rs.getLong(6),
                Optional.ofNullable(rs.getString(7)), Optional.ofNullable(rs.getString(8)), Instant.ofEpochMilli(rs.getLong(9)),
                Instant.ofEpochMilli(rs.getLong(10)), rs.getInt(11) == 1);
    }

    private static List<ChatMessage> messages(Connection c, String conversationId) throws SQLException {
        List<ChatMessage> all = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(MESSAGE + " WHERE conversation_id = ? ORDER BY seq")) {
            s.setString(1, conversationId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    all.add(message(rs));
                }
            }
        }
        return all;
    }

    private static ChatMessage messageIn(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(MESSAGE + " WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return message(rs);
            }
        }
    }

    private static ChatMessage message(ResultSet rs) throws SQLException {
        return new ChatMessage(rs.getString(1), rs.getString(2), rs.getLong(3), Optional.ofNullable(rs.getString(4)), rs.getString(5),
                rs.getString(6), rs.getString(7), Optional.ofNullable(rs.getString(8)), Optional.ofNullable(rs.getString(9)),
                Optional.ofNullable(rs.getString(10)), Optional.ofNullable(rs.getString(11)), Instant.ofEpochMilli(rs.getLong(12)),
                Instant.ofEpochMilli(rs.getLong(13)));
    }

    private static int update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            return s.executeUpdate();
        }
    }
}
