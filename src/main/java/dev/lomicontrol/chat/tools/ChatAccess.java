package dev.lomicontrol.chat.tools;

import dev.lomicontrol.chat.ChatDocuments;
import dev.lomicontrol.chat.ChatMessage;
import dev.lomicontrol.chat.Conversation;
import dev.lomicontrol.chat.Conversations;
import dev.lomicontrol.chat.api.ChatSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import java.util.List;
import java.util.Optional;

/**
 * The checks every chat tool shares, written once: a conversation exists for a session only when it
 * is in the workspace's project and shared with the session or its client label (TARGET_NOT_FOUND
 * otherwise, like an unknown id); the panel showing it; the draft and conversation revisions; and the
 * pieces every answer names (a conversation's summary, its last message, a page of text).
 */
final class ChatAccess {

    private final Conversations conversations;
    private final Layout layout;

    ChatAccess(Conversations conversations, Layout layout) {
        this.conversations = conversations;
        this.layout = layout;
    }

    /** The conversation when it is in the workspace's project and shared with the session (else TARGET_NOT_FOUND). */
    Conversation shared(Session session, WorkspaceAccess.Listed listed, String id) {
        Optional<Conversation> found = conversations
                .find(id)
                .filter(c -> c.project().equals(listed.project().id()));
        if (found.isEmpty()
                || !conversations.isShared(
                        id, session.clientLabel(), session.id().value())) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND, "no conversation " + id + " shared with this connection");
        }
        return found.get();
    }

    void requirePanel(WorkspaceAccess.Listed listed, String panelId, String conversationId) {
        Panel panel = layout.view(listed.workspace().id())
                .panel(panelId)
                .orElseThrow(() ->
                        new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + panelId + " in this workspace"));
        if (!showing(panel, conversationId)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "panel " + panelId + " does not show conversation " + conversationId
                            + "; open it with lomi_chat_open");
        }
    }

    static boolean showing(Panel panel, String conversationId) {
        return panel.kind() == PanelKind.CHAT
                && panel.gitView()
                        .filter(v -> v.contains("\"conversationId\":\"" + conversationId + "\""))
                        .isPresent();
    }

    static void requireRevisions(Conversation conversation, String draftRevision, String conversationRevision) {
        if (!conversation.draftRevisionToken().equals(draftRevision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the draft is at " + conversation.draftRevisionToken() + ", not " + draftRevision
                            + "; read it again");
        }
        if (!conversation.conversationRevision().equals(conversationRevision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the conversation is at " + conversation.conversationRevision() + ", not " + conversationRevision
                            + "; read it again");
        }
    }

    ChatSpecs.Summary summary(Conversation c) {
        return new ChatSpecs.Summary(
                c.id(),
                c.title(),
                c.conversationRevision(),
                lastMessage(c).map(ChatMessage::id),
                Long.toString(c.updatedAt().toEpochMilli()));
    }

    Optional<ChatMessage> lastMessage(Conversation conversation) {
        List<ChatMessage> messages = conversations.messages(conversation.id());
        return messages.isEmpty() ? Optional.empty() : Optional.of(messages.get(messages.size() - 1));
    }

    static String requestStatus(ChatMessage message) {
        return message.status().equals("complete") ? "completed" : message.status();
    }

    static ChatDocuments.Page page(String text, long start, int max, String revision, Optional<String> expected) {
        if (expected.isPresent() && !expected.get().equals(revision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the text changed since that page (revision is now " + revision
                            + "); read again from startUtf16 0");
        }
        return ChatDocuments.page(text, start, max);
    }
}
