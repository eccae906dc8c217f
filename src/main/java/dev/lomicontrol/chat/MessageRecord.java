package dev.lomicontrol.chat;

import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * One message as stored (table {@code chat_message}): an aggregate of its own, not part of its
 * conversation's, because a streaming reply saves its checkpoint many times and must not rewrite
 * the conversation each time. Times are epoch milliseconds.
 */
@Table("chat_message")
record MessageRecord(
        @Id String id,
        String conversationId,
        long seq,
        @Nullable String parentId,
        String role,
        String status,
        String content,
        @Nullable String connectionId,
        @Nullable String model,
        @Nullable String requestId,
        @Nullable String error,
        long createdAt,
        long updatedAt) {

    ChatMessage message() {
        return new ChatMessage(
                id,
                conversationId,
                seq,
                Optional.ofNullable(parentId),
                role,
                status,
                content,
                Optional.ofNullable(connectionId),
                Optional.ofNullable(model),
                Optional.ofNullable(requestId),
                Optional.ofNullable(error),
                Instant.ofEpochMilli(createdAt),
                Instant.ofEpochMilli(updatedAt));
    }

    boolean streaming() {
        return status.equals("streaming");
    }

    MessageRecord ended(String endStatus, String finalContent, @Nullable String endError, long now) {
        return new MessageRecord(
                id,
                conversationId,
                seq,
                parentId,
                role,
                endStatus,
                finalContent,
                connectionId,
                model,
                requestId,
                endError,
                createdAt,
                now);
    }
}
