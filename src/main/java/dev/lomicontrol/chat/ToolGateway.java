package dev.lomicontrol.chat;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * How the Chat AI reaches the broker's tools: over a session of its own that pairs like any client
 * (the broker implements this; ADR 0010). Nothing here runs a tool without that session's grant.
 */
public interface ToolGateway {

    /** An authenticated broker session; {@link #call} runs one tool exactly as a client's call (scope, binding, encoding). */
    interface ToolSession {
        boolean alive();

        /** The tool's Control API envelope ({@code {controlApiVersion, status, data|code,message}}). */
        JsonNode call(String tool, JsonNode arguments);

        /** Ends the session (its grant, leases and pending work, as a disconnect does). */
        void end();
    }

    /**
     * The conversation's session, paired now if it has none or its old one is no longer alive (a
     * revoked session is replaced, never reused). Blocks while the pairing request waits for the
     * admin (YOLO off), telling {@code waiting} the request id; a denial or expiry is a LomiException.
     */
    ToolSession session(String conversationId, ProjectId project, Consumer<String> waiting);

    /** The tools the model may be told of: the catalog external clients get, as declared. */
    List<ToolSpec<?>> tools();
}
