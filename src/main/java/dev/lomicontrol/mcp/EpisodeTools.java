package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.Schemas.arrayOf;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.integer;
import static dev.lomicontrol.mcp.Schemas.nullable;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.string;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/** Episode tools (SPEC §8, seed 003): attach/resume, deliberate detach, and the list. */
final class EpisodeTools {

    static final String ATTACH = "lomi_session_attach";
    static final String DETACH = "lomi_session_detach";
    static final String LIST = "lomi_episodes";

    /** One line, 1-256 characters, not blank, no control characters. */
    static final String EXTERNAL_ID_PATTERN = "^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$";

    private EpisodeTools() {}

    static List<ToolDefinition> all() {
        return List.of(attach(), detach(), list());
    }

    private static ObjectNode externalId(String description) {
        return string(1, 256, EXTERNAL_ID_PATTERN, description);
    }

    private static ObjectNode episode() {
        return object().property("externalId", string("the client's own durable conversation/thread id"))
                .property("state", oneOfStrings("open, detached (connection lost, resumable) or closed", "open", "detached", "closed"))
                .property("openedAt", string("when it was opened (ISO-8601)"))
                .property("lastActivityAt", nullable(string("the last traffic on the holding connection")))
                .property("attachments", integer("how many connections have carried it"))
                .property("closingReason", nullable(string("detach, shutdown or expired (interrupted), once closed")))
                .property("mine", bool("whether the calling connection holds it"))
                .require("externalId", "state", "openedAt", "attachments").build();
    }

    private static ToolDefinition attach() {
        ObjectNode input = object().property("externalId", externalId("your durable conversation/thread id (not a connection id)"))
                .require("externalId").closed().build();
        ObjectNode data = object().property("kind", constant("episode")).property("episode", episode())
                .property("resumed", bool("whether an existing episode with this externalId was resumed"))
                .property("reattachGraceSeconds", integer("how long a detached episode stays resumable"))
                .require("kind", "episode", "resumed", "reattachGraceSeconds").build();
        return ToolDefinition.broker(ATTACH, "Attach an episode",
                "Opens an execution episode for this conversation, or resumes the one this externalId already has. One connection holds at "
                        + "most one episode; attaching another id detaches the first.",
                Effect.MUT, null, input, data);
    }

    private static ToolDefinition detach() {
        ObjectNode input = object().property("externalId", externalId("the episode to close; omit for your own")).closed().build();
        ObjectNode data = object().property("kind", constant("episode_closed")).property("episode", episode())
                .require("kind", "episode").build();
        return ToolDefinition.broker(DETACH, "Close an episode",
                "Closes an episode deliberately (the work is done). Without externalId it means the caller's own episode.",
                Effect.MUT, null, input, data);
    }

    private static ToolDefinition list() {
        ObjectNode data = object().property("kind", constant("episodes")).property("open", integer("open episodes"))
                .property("detached", integer("detached episodes")).property("episodes", arrayOf(episode(), "open, detached and recently closed"))
                .require("kind", "episodes").build();
        return ToolDefinition.broker(LIST, "List episodes",
                "Every episode held by the broker (open and detached, plus recently closed ones with their reason), marking the caller's own.",
                Effect.RO, null, Schemas.noArguments(), data);
    }
}
