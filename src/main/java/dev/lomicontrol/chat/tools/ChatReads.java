package dev.lomicontrol.chat.tools;

import dev.lomicontrol.chat.ChatDocuments;
import dev.lomicontrol.chat.ChatMessage;
import dev.lomicontrol.chat.Conversation;
import dev.lomicontrol.chat.Conversations;
import dev.lomicontrol.chat.ModelConnection;
import dev.lomicontrol.chat.ModelConnections;
import dev.lomicontrol.chat.api.ChatSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The chat reads: {@code lomi_chat_list} (the conversations shared with the session, with a list
 * revision), {@code lomi_chat_read} (a UTF-16 page of the draft or of one message, and where a send
 * would go) and {@code lomi_chat_export} (the conversation as Markdown or JSON, paged).
 */
final class ChatReads {

    private final Conversations conversations;
    private final ModelConnections connections;
    private final WorkspaceAccess workspaces;
    private final ChatAccess access;

    ChatReads(
            Conversations conversations, ModelConnections connections, WorkspaceAccess workspaces, ChatAccess access) {
        this.conversations = conversations;
        this.connections = connections;
        this.workspaces = workspaces;
        this.access = access;
    }

    ChatSpecs.Listed list(Session session, ChatSpecs.ListInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        List<Conversation> shared = conversations.sharedWith(
                listed.project().id(), session.clientLabel(), session.id().value());
        StringBuilder state = new StringBuilder();
        shared.forEach(c -> state.append(c.id())
                .append(':')
                .append(c.revision())
                .append(':')
                .append(c.title())
                .append('\n'));
        String revision = "l" + ChatDocuments.sha256(state.toString()).substring(0, 32);
        if (in.expectedRevision().isPresent()
                && !in.expectedRevision().get().value().equals(revision)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the shared conversations changed (revision is now " + revision + "); list again from offset 0");
        }
        int from = Math.min(in.offset(), shared.size());
        int to = Math.min(shared.size(), from + in.limit());
        List<ChatSpecs.Summary> items =
                shared.subList(from, to).stream().map(access::summary).toList();
        return new ChatSpecs.Listed(
                listed.workspace().id(),
                revision,
                items,
                shared.size(),
                in.offset(),
                to < shared.size() ? Optional.of(to) : Optional.empty());
    }

    ChatSpecs.Read read(Session session, ChatSpecs.ReadInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        Conversation conversation =
                access.shared(session, listed, in.conversationId().value());
        Optional<ChatSpecs.SendTarget> target = in.includeSendTarget() ? sendTarget(conversation) : Optional.empty();
        if (in.part() instanceof ChatSpecs.Draft) {
            String revision = conversation.draftRevisionToken();
            ChatDocuments.Page page = ChatAccess.page(
                    conversation.draft(),
                    in.startUtf16(),
                    in.maxChars(),
                    revision,
                    in.expectedRevision().map(t -> t.value()));
            return new ChatSpecs.Read(
                    listed.workspace().id(),
                    access.summary(conversation),
                    "persisted_checkpoint",
                    in.part(),
                    revision,
                    Optional.of(revision),
                    access.lastMessage(conversation).map(ChatMessage::id),
                    "user",
                    "draft",
                    page.content(),
                    in.startUtf16(),
                    page.total(),
                    page.next(),
                    false,
                    false,
                    target,
                    Optional.empty());
        }
        ChatSpecs.Message part = (ChatSpecs.Message) in.part();
        ChatMessage message = part.messageId().isPresent()
                ? conversations
                        .message(part.messageId().get().value())
                        .filter(m -> m.conversationId().equals(conversation.id()))
                        .orElseThrow(() -> new LomiException(
                                ErrorCode.TARGET_NOT_FOUND,
                                "no message " + part.messageId().get() + " in " + conversation.id()))
                : access.lastMessage(conversation)
                        .orElseThrow(() -> new LomiException(
                                ErrorCode.TARGET_NOT_FOUND,
                                "conversation " + conversation.id() + " has no messages yet"));
        String revision = "m"
                + ChatDocuments.sha256(message.id() + "\n" + message.status() + "\n" + message.content())
                        .substring(0, 32);
        ChatDocuments.Page page = ChatAccess.page(
                message.content(),
                in.startUtf16(),
                in.maxChars(),
                revision,
                in.expectedRevision().map(t -> t.value()));
        Optional<ChatSpecs.Request> request = message.requestId()
                .map(id -> new ChatSpecs.Request(id, message.id(), ChatAccess.requestStatus(message)));
        return new ChatSpecs.Read(
                listed.workspace().id(),
                access.summary(conversation),
                "persisted_checkpoint",
                new ChatSpecs.Message(Optional.of(new ChatSpecs.ChatId(message.id()))),
                revision,
                Optional.empty(),
                message.parentId(),
                message.role(),
                message.status(),
                page.content(),
                in.startUtf16(),
                page.total(),
                page.next(),
                false,
                false,
                target,
                request);
    }

    ChatSpecs.Exported export(Session session, ChatSpecs.ExportInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        Conversation conversation =
                access.shared(session, listed, in.conversationId().value());
        List<ChatMessage> messages = conversations.messages(conversation.id());
        String document = in.format() == ChatSpecs.Format.MARKDOWN
                ? ChatDocuments.markdown(conversation, messages)
                : ChatDocuments.json(conversation, messages);
        String revision = ChatDocuments.sha256(document);
        ChatDocuments.Page page = ChatAccess.page(
                document,
                in.startUtf16(),
                in.maxChars(),
                revision,
                in.expectedRevision().map(t -> t.value()));
        return new ChatSpecs.Exported(
                listed.workspace().id(),
                conversation.id(),
                in.format(),
                revision,
                document.getBytes(StandardCharsets.UTF_8).length,
                messages.size(),
                page.content(),
                in.startUtf16(),
                page.total(),
                page.next(),
                false,
                false);
    }

    private Optional<ChatSpecs.SendTarget> sendTarget(Conversation conversation) {
        Optional<ModelConnection> connection = conversation
                .connectionId()
                .flatMap(connections::find)
                .or(() -> connections.list().stream().findFirst());
        return connection.map(c -> new ChatSpecs.SendTarget(c.id(), c.model(), c.maxOutputTokens()));
    }
}
