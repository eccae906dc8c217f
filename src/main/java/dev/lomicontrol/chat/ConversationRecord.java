package dev.lomicontrol.chat;

import dev.lomicontrol.core.ProjectId;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.MappedCollection;
import org.springframework.data.relational.core.mapping.Table;

/**
 * One conversation as stored (table {@code chat_conversation}) with whom it is shared
 * ({@code chat_share} rows, owned by the conversation and deleted with it): a Spring Data JDBC
 * aggregate. It has two counters and neither is a {@code @Version}: {@code revision}
 * (conversationRevision) moves when a message is added or a reply ends, {@code draftRevision} when
 * the draft changes, and other saves (tools, shares) move neither; both are compared inside the
 * ledger's single writer before a change is saved (ADR 0012). Times are epoch milliseconds.
 */
@Table("chat_conversation")
record ConversationRecord(
        @Id String id,
        String projectId,
        String title,
        long revision,
        String draft,
        long draftRevision,
        @Nullable String connectionId,
        @Nullable String model,
        int tools,
        long createdAt,
        long updatedAt,
        @MappedCollection(idColumn = "conversation_id") Set<ShareRecord> shares) {

    ConversationRecord {
        shares = shares == null ? Set.of() : Set.copyOf(shares);
    }

    /** One share of a conversation (table {@code chat_share}). */
    @Table("chat_share")
    record ShareRecord(String kind, String value, long createdAt) {}

    static ConversationRecord created(String id, ProjectId project, String title, long now) {
        return new ConversationRecord(id, project.value(), title, 1, "", 1, null, null, 0, now, now, Set.of());
    }

    Conversation conversation() {
        return new Conversation(
                id,
                new ProjectId(projectId),
                title,
                revision,
                draft,
                draftRevision,
                Optional.ofNullable(connectionId),
                Optional.ofNullable(model),
                Instant.ofEpochMilli(createdAt),
                Instant.ofEpochMilli(updatedAt),
                tools == 1);
    }

    boolean sharedWith(String clientLabel, String sessionId) {
        return shares.stream()
                .anyMatch(s -> s.kind().equals("client")
                        ? s.value().equals(clientLabel)
                        : s.value().equals(sessionId));
    }

    /** With {@code share} added (kept as it was when already there). */
    ConversationRecord sharing(Conversations.Share share, long now) {
        if (shares.stream()
                .anyMatch(s -> s.kind().equals(share.kind()) && s.value().equals(share.value()))) {
            return this;
        }
        Set<ShareRecord> more = new HashSet<>(shares);
        more.add(new ShareRecord(share.kind(), share.value(), now));
        return withShares(more);
    }

    ConversationRecord unsharing(Conversations.Share share) {
        Set<ShareRecord> fewer = new HashSet<>(shares);
        return fewer.removeIf(s -> s.kind().equals(share.kind()) && s.value().equals(share.value()))
                ? withShares(fewer)
                : this;
    }

    ConversationRecord withTools(boolean on, long now) {
        return new ConversationRecord(
                id,
                projectId,
                title,
                revision,
                draft,
                draftRevision,
                connectionId,
                model,
                on ? 1 : 0,
                createdAt,
                now,
                shares);
    }

    ConversationRecord withDraft(String text, long now) {
        return new ConversationRecord(
                id,
                projectId,
                title,
                revision,
                text,
                draftRevision + 1,
                connectionId,
                model,
                tools,
                createdAt,
                now,
                shares);
    }

    /** A send: the draft is cleared (draftRevision moves), conversationRevision moves, the target is remembered. */
    ConversationRecord sent(String connection, String sentModel, long now) {
        return new ConversationRecord(
                id,
                projectId,
                title,
                revision + 1,
                "",
                draftRevision + 1,
                connection,
                sentModel,
                tools,
                createdAt,
                now,
                shares);
    }

    /** The admin said something: conversationRevision moves; a given target replaces the remembered one. */
    ConversationRecord said(Optional<String> connection, Optional<String> saidModel, long now) {
        return new ConversationRecord(
                id,
                projectId,
                title,
                revision + 1,
                draft,
                draftRevision,
                connection.orElse(connectionId),
                saidModel.orElse(model),
                tools,
                createdAt,
                now,
                shares);
    }

    /** A reply ended: conversationRevision moves. */
    ConversationRecord replyEnded(long now) {
        return new ConversationRecord(
                id,
                projectId,
                title,
                revision + 1,
                draft,
                draftRevision,
                connectionId,
                model,
                tools,
                createdAt,
                now,
                shares);
    }

    private ConversationRecord withShares(Set<ShareRecord> next) {
        return new ConversationRecord(
                id,
                projectId,
                title,
                revision,
                draft,
                draftRevision,
                connectionId,
                model,
                tools,
                createdAt,
                updatedAt,
                next);
    }
}
