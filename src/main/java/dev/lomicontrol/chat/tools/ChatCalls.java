package dev.lomicontrol.chat.tools;

import dev.lomicontrol.chat.Chat;
import dev.lomicontrol.chat.api.ChatSpecs;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.projects.Layout;
import org.springframework.stereotype.Component;

/**
 * The seven {@code lomi_chat_*} tools (SPEC §10 Chat) on the durable conversations. A conversation
 * exists for a session only when it belongs to the workspace's project and is shared with the
 * session or its client label (TARGET_NOT_FOUND otherwise, like an unknown id). A send parks in
 * {@code awaiting_user} with its exact text, model and connection; approval persists the draft as
 * a user message and starts the provider's stream, and the operation settles when the reply ends.
 *
 * <p>The feature is built from its parts: {@link ChatAccess} (the checks every tool shares),
 * {@link ChatReads} (list, read, export), {@link ChatOperations} (open, draft, stop) and
 * {@link ChatSends} (send, and the cancel of a streaming send).
 */
@Component
public final class ChatCalls implements ToolFeature {

    private final ChatReads reads;
    private final ChatOperations operations;
    private final ChatSends sends;

    public ChatCalls(Chat chat, WorkspaceAccess workspaces, OperationRunner runner, Layout layout) {
        ChatAccess access = new ChatAccess(chat.conversations(), layout);
        this.reads = new ChatReads(chat.conversations(), chat.connections(), workspaces, access);
        this.operations = new ChatOperations(chat.conversations(), chat.replies(), workspaces, runner, layout, access);
        this.sends = new ChatSends(
                chat.conversations(), chat.connections(), chat.replies(), workspaces, runner, layout, access);
    }

    /** Registers the handlers of the seven chat tools. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(ChatSpecs.LIST, reads::list);
        handlers.on(ChatSpecs.READ, reads::read);
        handlers.on(ChatSpecs.EXPORT, reads::export);
        handlers.on(ChatSpecs.OPEN, operations::open);
        handlers.on(ChatSpecs.DRAFT, operations::draft);
        handlers.on(ChatSpecs.SEND, sends::send);
        handlers.on(ChatSpecs.STOP, operations::stop);
    }

    /** lomi_operation_cancel of a send whose reply streams: stops that request (the ledger already says cancelling). */
    @Override
    public boolean requestStop(Operation operation) {
        return sends.requestStop(operation);
    }
}
