package dev.lomicontrol.chat;

import dev.lomicontrol.core.ProjectId;
import java.time.Instant;
import java.util.Optional;

/**
 * One shared conversation as stored.
 *
 * @param revision the conversationRevision counter: moves whenever a message is added or a reply ends
 * @param draftRevision the draftRevision counter: moves whenever the draft changes (a send clears it)
 * @param connectionId the connection its last send used
 * @param tools whether its model may use the broker's tools (the built-in Chat AI)
 */
public record Conversation(
        String id,
        ProjectId project,
        String title,
        long revision,
        String draft,
        long draftRevision,
        Optional<String> connectionId,
        Optional<String> model,
        Instant createdAt,
        Instant updatedAt,
        boolean tools) {

    /** The wire form of {@link #revision}: {@code "r<n>"}. */
    public String conversationRevision() {
        return "r" + revision;
    }

    /** The wire form of {@link #draftRevision}: {@code "d<n>"}. */
    public String draftRevisionToken() {
        return "d" + draftRevision;
    }
}
