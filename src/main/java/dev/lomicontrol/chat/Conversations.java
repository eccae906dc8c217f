package dev.lomicontrol.chat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.ledger.Ledger;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;

/**
 * The durable conversations (tables {@code chat_conversation}, {@code chat_message},
 * {@code chat_share}). Every change runs in the ledger's single writer; the compare-and-set changes
 * ({@link #setDraft}, {@link #beginSend}) check {@code draftRevision} and {@code conversationRevision}
 * in the same transaction, so a stale revision changes nothing (REVISION_CONFLICT). The rows are
 * Spring Data JDBC aggregates ({@link ConversationRecord} with its shares, {@link MessageRecord})
 * whose repositories write inside that transaction (ADR 0012).
 */
public final class Conversations {

    /** A draft holds at most 32 KiB of UTF-8. */
    public static final int MAX_DRAFT_BYTES = 32 * 1024;
    /** At most this many conversations are listed to one connection. */
    public static final int MAX_SHARED = 64;

    private final Ledger store;
    private final ConversationRecords conversations;
    private final MessageRecords messages;
    private final JdbcAggregateOperations aggregates;
    private final Clock clock;
    private final RandomGenerator random;

    public Conversations(Ledger store, Clock clock, RandomGenerator random) {
        this.store = store;
        this.conversations = store.jdbc().repository(ConversationRecords.class);
        this.messages = store.jdbc().repository(MessageRecords.class);
        this.aggregates = store.jdbc().aggregates();
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
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "a chat title is 1-256 characters without control characters");
        }
        sharedWith.ifPresent(Conversations::requireValid);
        String id = "chat-" + Ids.randomHex(random, 8);
        return store.write(c -> {
            long now = clock.millis();
            ConversationRecord created = ConversationRecord.created(id, project, title, now);
            if (sharedWith.isPresent()) {
                created = created.sharing(sharedWith.get(), now);
            }
            return aggregates.insert(created).conversation();
        });
    }

    public Optional<Conversation> find(String id) {
        return conversations.findById(id).map(ConversationRecord::conversation);
    }

    /** Every conversation (of one project, when given), oldest first. */
    public List<Conversation> list(Optional<ProjectId> project) {
        List<ConversationRecord> found = project.isPresent()
                ? conversations.findByProjectIdOrderByCreatedAtAscIdAsc(
                        project.get().value())
                : conversations.findAllByOrderByCreatedAtAscIdAsc();
        return found.stream().map(ConversationRecord::conversation).toList();
    }

    /** The conversations of {@code project} shared with this client label or session, oldest first, at most 64. */
    public List<Conversation> sharedWith(ProjectId project, String clientLabel, String sessionId) {
        return conversations.sharedWith(project.value(), clientLabel, sessionId, MAX_SHARED).stream()
                .map(ConversationRecord::conversation)
                .toList();
    }

    /** Whether the conversation is shared with this client label or session. */
    public boolean isShared(String conversationId, String clientLabel, String sessionId) {
        return conversations
                .findById(conversationId)
                .filter(r -> r.sharedWith(clientLabel, sessionId))
                .isPresent();
    }

    public List<Share> shares(String conversationId) {
        return conversations.findById(conversationId).stream()
                .flatMap(r -> r.shares().stream())
                .map(s -> new Share(s.kind(), s.value()))
                .sorted(java.util.Comparator.comparing(Share::kind).thenComparing(Share::value))
                .toList();
    }

    /** Shares (or, with {@code revoke}, stops sharing) a conversation; TARGET_NOT_FOUND for an unknown one. */
    public void share(String conversationId, Share share, boolean revoke) {
        store.change(c -> {
            ConversationRecord current = require(conversationId);
            if (!revoke) {
                requireValid(share);
            }
            ConversationRecord next = revoke ? current.unsharing(share) : current.sharing(share, clock.millis());
            if (next != current) {
                conversations.save(next);
            }
        });
    }

    /** Lets the conversation's model use the broker's tools (the built-in Chat AI), or stops it; TARGET_NOT_FOUND for an unknown one. */
    public void setTools(String conversationId, boolean tools) {
        store.write(c -> conversations.save(require(conversationId).withTools(tools, clock.millis())));
    }

    public List<ChatMessage> messages(String conversationId) {
        return messages.findByConversationIdOrderBySeq(conversationId).stream()
                .map(MessageRecord::message)
                .toList();
    }

    public Optional<ChatMessage> message(String messageId) {
        return messages.findById(messageId).map(MessageRecord::message);
    }

    /** The assistant message a provider request produced. */
    public Optional<ChatMessage> byRequest(String conversationId, String requestId) {
        return messages(conversationId).stream()
                .filter(m -> m.requestId().filter(requestId::equals).isPresent())
                .findFirst();
    }

    /**
     * Replaces the draft compare-and-set: both revisions must be current, else REVISION_CONFLICT and
     * nothing changes; more than 32 KiB of UTF-8 is INVALID_ARGUMENT. The draft revision moves.
     */
    public Conversation setDraft(
            String conversationId, String text, String expectedDraftRevision, String expectedConversationRevision) {
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_DRAFT_BYTES) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a draft holds at most 32 KiB of UTF-8");
        }
        return store.write(c -> {
            ConversationRecord current = require(conversationId);
            requireRevisions(current.conversation(), expectedDraftRevision, expectedConversationRevision);
            return conversations.save(current.withDraft(text, clock.millis())).conversation();
        });
    }

    /** What a send persisted: the conversation after it, the user message (the draft) and the streaming assistant message. */
    public record Sending(
            Conversation conversation,
            ChatMessage user,
            @Nullable ChatMessage assistant) {}

    /**
     * Starts a send of the exact persisted draft, compare-and-set on both revisions: the draft becomes
     * a user message, an empty assistant message starts {@code streaming} under {@code requestId}, the
     * draft is cleared (draftRevision moves) and conversationRevision moves. REVISION_CONFLICT when a
     * revision is stale, INVALID_ARGUMENT for an empty draft, TARGET_BUSY while a reply streams.
     */
    public Sending beginSend(
            String conversationId,
            String expectedDraftRevision,
            String expectedConversationRevision,
            String connectionId,
            String model,
            String requestId) {
        return store.write(c -> {
            ConversationRecord current = require(conversationId);
            requireRevisions(current.conversation(), expectedDraftRevision, expectedConversationRevision);
            requireSendable(current.conversation());
            long now = clock.millis();
            MessageRecord user = append(conversationId, "user", "complete", current.draft(), null, null, null, now);
            MessageRecord assistant =
                    append(conversationId, "assistant", "streaming", "", connectionId, model, requestId, now);
            ConversationRecord sent = conversations.save(current.sent(connectionId, model, now));
            return new Sending(sent.conversation(), user.message(), assistant.message());
        });
    }

    /**
     * The admin's own message ({@code chat say}): appended as a user message at once, no approval;
     * with a connection, an assistant message starts {@code streaming} for its reply. TARGET_BUSY while a reply streams.
     */
    public Sending say(
            String conversationId,
            String text,
            Optional<String> connectionId,
            Optional<String> model,
            Optional<String> requestId) {
        if (text.isEmpty() || text.getBytes(StandardCharsets.UTF_8).length > MAX_DRAFT_BYTES) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a message is 1 byte to 32 KiB of UTF-8");
        }
        return store.write(c -> {
            ConversationRecord current = require(conversationId);
            requireIdle(current.conversation());
            long now = clock.millis();
            MessageRecord user = append(conversationId, "user", "complete", text, null, null, null, now);
            @Nullable ChatMessage reply = null;
            if (connectionId.isPresent()) {
                reply = append(
                                conversationId,
                                "assistant",
                                "streaming",
                                "",
                                connectionId.get(),
                                model.orElse(null),
                                requestId.orElse(null),
                                now)
                        .message();
            }
            ConversationRecord said = conversations.save(current.said(connectionId, model, now));
            return new Sending(said.conversation(), user.message(), reply);
        });
    }

    /** Saves what arrived of a streaming reply so far (its checkpoint); a reply that already ended is left alone. */
    public void checkpoint(String messageId, String content) {
        store.write(c -> messages.checkpoint(messageId, content, clock.millis()));
    }

    /** Ends a streaming reply with its final text and status; conversationRevision moves. False when it had already ended. */
    public boolean finish(String messageId, String status, String content, Optional<String> error) {
        return store.write(c -> {
            Optional<MessageRecord> streaming = messages.findById(messageId).filter(MessageRecord::streaming);
            if (streaming.isEmpty()) {
                return false;
            }
            long now = clock.millis();
            messages.save(streaming.get().ended(status, content, error.orElse(null), now));
            conversations
                    .findById(streaming.get().conversationId())
                    .ifPresent(conversation -> conversations.save(conversation.replyEnded(now)));
            return true;
        });
    }

    /** At start-up: replies that were streaming when the broker stopped end {@code interrupted} (never resumed). */
    public int interruptStreaming() {
        return store.write(c -> {
            List<MessageRecord> streaming = messages.findByStatus("streaming");
            long now = clock.millis();
            Set<String> moved = new LinkedHashSet<>();
            for (MessageRecord message : streaming) {
                messages.save(message.ended(
                        "interrupted", message.content(), "the broker stopped while the reply streamed", now));
                moved.add(message.conversationId());
            }
            for (String id : moved) {
                conversations
                        .findById(id)
                        .ifPresent(
                                conversation -> conversations.save(conversation.replyEnded(conversation.updatedAt())));
            }
            return streaming.size();
        });
    }

    // ------------------------------------------------------------------ internals

    private void requireRevisions(
            Conversation current, String expectedDraftRevision, String expectedConversationRevision) {
        if (!current.draftRevisionToken().equals(expectedDraftRevision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the draft of " + current.id() + " is at " + current.draftRevisionToken() + ", not "
                            + expectedDraftRevision + "; read it again");
        }
        if (!current.conversationRevision().equals(expectedConversationRevision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "conversation " + current.id() + " is at " + current.conversationRevision() + ", not "
                            + expectedConversationRevision + "; read it again");
        }
    }

    /** The checks a send needs besides the revisions (also run at admission, before anything is reserved). */
    public void requireSendable(String conversationId) {
        requireSendable(require(conversationId).conversation());
    }

    private void requireSendable(Conversation current) {
        if (current.draft().isEmpty()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "the draft of " + current.id() + " is empty; there is nothing to send");
        }
        requireIdle(current);
    }

    private void requireIdle(Conversation current) {
        Optional<MessageRecord> streaming = messages.findFirstByConversationIdAndStatus(current.id(), "streaming");
        if (streaming.isPresent()) {
            throw new LomiException(
                    ErrorCode.TARGET_BUSY,
                    "a reply is still streaming in " + current.id() + " (request "
                            + Optional.ofNullable(streaming.get().requestId()).orElse("?") + "); stop it or wait");
        }
    }

    /** Appends a message after the conversation's last one (its parent). Inside the writer. */
    private MessageRecord append(
            String conversationId,
            String role,
            String status,
            String content,
            @Nullable String connectionId,
            @Nullable String model,
            @Nullable String requestId,
            long now) {
        Optional<MessageRecord> last = messages.findFirstByConversationIdOrderBySeqDesc(conversationId);
        long seq = last.map(m -> m.seq() + 1).orElse(1L);
        String id = "msg-" + Ids.randomHex(random, 8);
        return aggregates.insert(new MessageRecord(
                id,
                conversationId,
                seq,
                last.map(MessageRecord::id).orElse(null),
                role,
                status,
                content,
                connectionId,
                model,
                requestId,
                null,
                now,
                now));
    }

    private static void requireValid(Share share) {
        if (!share.kind().equals("client") && !share.kind().equals("session")
                || share.value().isEmpty()
                || share.value().length() > 256) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "share with --client LABEL or --session ID");
        }
    }

    private ConversationRecord require(String id) {
        return conversations
                .findById(id)
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no conversation " + id));
    }
}
