package dev.lomicontrol.chat;

import java.time.Instant;
import java.util.Optional;

/**
 * One message of a conversation. An assistant message is the persisted checkpoint of a reply:
 * {@code content} is what was saved of the stream so far and {@code status} whether it is still
 * {@code streaming} or ended {@code complete}, {@code stopped}, {@code failed} or {@code interrupted}.
 */
public record ChatMessage(
        String id,
        String conversationId,
        long seq,
        Optional<String> parentId,
        String role,
        String status,
        String content,
        Optional<String> connectionId,
        Optional<String> model,
        Optional<String> requestId,
        Optional<String> error,
        Instant createdAt,
        Instant updatedAt) {

    public boolean streaming() {
        return status.equals("streaming");
    }
}
