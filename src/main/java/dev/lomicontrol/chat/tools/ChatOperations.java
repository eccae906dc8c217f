package dev.lomicontrol.chat.tools;

import dev.lomicontrol.chat.ChatDocuments;
import dev.lomicontrol.chat.ChatMessage;
import dev.lomicontrol.chat.Conversation;
import dev.lomicontrol.chat.Conversations;
import dev.lomicontrol.chat.Replies;
import dev.lomicontrol.chat.api.ChatSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.tools.Encoder;
import java.util.Optional;
import java.util.OptionalLong;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chat operations that change no provider's state: {@code lomi_chat_open} (a new or shared
 * conversation in a chat panel, focused if one shows it already), {@code lomi_chat_draft} (the
 * shared draft, at the expected revisions) and {@code lomi_chat_stop} (a streaming reply).
 */
final class ChatOperations {

    private final Conversations conversations;
    private final Replies replies;
    private final WorkspaceAccess workspaces;
    private final OperationRunner runner;
    private final Layout layout;
    private final ChatAccess access;

    ChatOperations(
            Conversations conversations,
            Replies replies,
            WorkspaceAccess workspaces,
            OperationRunner runner,
            Layout layout,
            ChatAccess access) {
        this.conversations = conversations;
        this.replies = replies;
        this.workspaces = workspaces;
        this.runner = runner;
        this.layout = layout;
        this.access = access;
    }

    ObjectNode open(Session session, ChatSpecs.OpenInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        boolean create = in.target() instanceof ChatSpecs.New;
        String resource = create
                ? "new"
                : ((ChatSpecs.Existing) in.target()).conversationId().value();
        return runner.immediate(
                OperationRunner.Request.of(session, ChatSpecs.OPEN, in, listed, resource, OptionalLong.of(expected)),
                () -> {
                    if (!create) {
                        access.shared(session, listed, resource);
                    }
                    Revisions.require(expected, layout.revision());
                },
                operation -> {
                    Conversation conversation = create
                            ? conversations.create(
                                    listed.project().id(),
                                    "Chat",
                                    Optional.of(Conversations.Share.session(
                                            session.id().value())))
                            : access.shared(session, listed, resource);
                    Panel panel = layout.change(OptionalLong.of(expected), edit -> {
                        WorkspaceView view = edit.view(listed.workspace().id());
                        Optional<Panel> existing = view.panels().stream()
                                .filter(p -> ChatAccess.showing(p, conversation.id()))
                                .findFirst();
                        if (existing.isPresent()) {
                            edit.focus(listed.workspace().id(), existing.get().id());
                            return existing.get();
                        }
                        return edit.addChatPanel(
                                listed.workspace().id(),
                                conversation.title(),
                                session.id().value(),
                                conversation.id());
                    });
                    return Encoder.encode(
                            new ChatSpecs.Opened(listed.workspace().id(), panel.id(), conversation.id(), create));
                });
    }

    ObjectNode draft(Session session, ChatSpecs.DraftInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        String id = in.conversationId().value();
        return runner.immediate(
                OperationRunner.Request.of(session, ChatSpecs.DRAFT, in, listed, id, OptionalLong.of(expected)),
                () -> {
                    Conversation conversation = access.shared(session, listed, id);
                    access.requirePanel(listed, in.panelId().value(), id);
                    Revisions.require(expected, layout.revision());
                    ChatAccess.requireRevisions(
                            conversation,
                            in.expectedDraftRevision().value(),
                            in.expectedConversationRevision().value());
                },
                operation -> {
                    Conversation after = conversations.setDraft(
                            id,
                            in.text(),
                            in.expectedDraftRevision().value(),
                            in.expectedConversationRevision().value());
                    return Encoder.encode(new ChatSpecs.DraftUpdated(
                            listed.workspace().id(),
                            in.panelId().value(),
                            id,
                            after.draftRevisionToken(),
                            after.conversationRevision(),
                            ChatDocuments.sha256(after.draft()),
                            after.draft().length()));
                });
    }

    ObjectNode stop(Session session, ChatSpecs.StopInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        String id = in.conversationId().value();
        String requestId = in.requestId().value();
        return runner.immediate(
                OperationRunner.Request.of(
                        session, ChatSpecs.STOP, in, listed, id + "/" + requestId, OptionalLong.empty()),
                () -> {
                    access.shared(session, listed, id);
                    conversations
                            .byRequest(id, requestId)
                            .orElseThrow(() -> new LomiException(
                                    ErrorCode.TARGET_NOT_FOUND, "no request " + requestId + " in " + id));
                },
                operation -> {
                    Optional<Replies.Outcome> stopped = replies.stop(requestId, ChatSends.STOP_WAIT);
                    ChatMessage message = conversations.byRequest(id, requestId).orElseThrow();
                    return Encoder.encode(new ChatSpecs.Stopped(
                            listed.workspace().id(),
                            id,
                            new ChatSpecs.Request(requestId, message.id(), ChatAccess.requestStatus(message)),
                            stopped.isEmpty()));
                });
    }
}
