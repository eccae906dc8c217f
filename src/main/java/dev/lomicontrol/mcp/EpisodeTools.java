package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.Schemas.arrayOf;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.integer;
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

    private static final String[] EPISODE_REQUIRED = {"episodeId", "externalId", "state", "attachments", "openedAt"};

    private EpisodeTools() {}

    static List<ToolDefinition> all() {
        return List.of(attach(), detach(), list());
    }

    private static ObjectNode externalId(String description) {
        return string(1, 256, EXTERNAL_ID_PATTERN, description);
    }

    /** Adds the fields every episode answer shares (the broker's wire form: flat, closed ones with their reason). */
    private static Schemas.ObjectSchema episodeFields(Schemas.ObjectSchema schema) {
        return schema.property("episodeId", string("the broker's id of the episode"))
                .property("externalId", string("the client's own durable conversation/thread id"))
                .property("state", oneOfStrings("attached (a live connection holds it), detached (its connection ended; resumable) or closed",
                        "attached", "detached", "closed"))
                .property("attachments", integer("how many connections have carried it"))
                .property("openedAt", string("when it was opened (ISO-8601)"))
                .property("lastActivity", string("the last traffic on the holding connection (ISO-8601)"))
                .property("detachedSince", string("since when it is detached"))
                .property("closedAt", string("when it was closed"))
                .property("closeReason", oneOfStrings("closed (deliberately), expired (detached past the grace) or shutdown", "closed", "expired",
                        "shutdown"))
                .property("ending", oneOfStrings("closed = the work was declared over; interrupted = it expired", "closed", "interrupted"));
    }

    private static ObjectNode episode() {
        return episodeFields(object()).require(EPISODE_REQUIRED).build();
    }

    /** An entry of the live list: the shared fields plus who holds it. */
    private static ObjectNode listed() {
        return episodeFields(object()).property("held", bool("whether a live connection holds it"))
                .property("mine", bool("whether the calling connection holds it"))
                .property("holdingSession", string("the calling session, when it holds the episode"))
                .property("lastActivitySecondsAgo", integer("seconds since the last traffic"))
                .require(EPISODE_REQUIRED).require("held", "mine").build();
    }

    private static ToolDefinition attach() {
        ObjectNode input = object().property("externalId", externalId("your durable conversation/thread id (not a connection id)"))
                .require("externalId").closed().build();
        ObjectNode data = episodeFields(object().property("kind", constant("episode")))
                .property("resumed", bool("whether an existing episode with this externalId was resumed"))
                .property("reattachGraceSeconds", integer("how long a detached episode stays resumable"))
                .property("released", episode().put("description", "the episode this connection held before, now detached"))
                .require("kind", "resumed", "reattachGraceSeconds").require(EPISODE_REQUIRED).build();
        return ToolDefinition.broker(ATTACH, "Attach an episode",
                "Opens an execution episode for this conversation, or resumes the one this externalId already has (resumed:true). One "
                        + "connection holds at most one episode; attaching another id detaches the first (released).",
                Effect.MUT, null, input, data);
    }

    private static ToolDefinition detach() {
        ObjectNode input = object().property("externalId", externalId("the episode to close; omit for your own")).closed().build();
        ObjectNode data = episodeFields(object().property("kind", constant("episode"))).require("kind").require(EPISODE_REQUIRED).build();
        return ToolDefinition.broker(DETACH, "Close an episode",
                "Closes an episode deliberately (the work is done). Without externalId it means the caller's own episode.",
                Effect.MUT, null, input, data);
    }

    private static ToolDefinition list() {
        ObjectNode data = object().property("kind", constant("episodes")).property("attached", integer("attached episodes"))
                .property("detached", integer("detached episodes")).property("reattachGraceSeconds", integer("how long a detached episode stays resumable"))
                .property("episodes", arrayOf(listed(), "live episodes: attached and detached")).property("recentlyClosed", arrayOf(episode(),
                        "recently closed episodes with their reason")).property("mine", listed())
                .require("kind", "episodes").build();
        return ToolDefinition.broker(LIST, "List episodes",
                "Every live episode held by the broker (attached and detached) plus recently closed ones with their reason, marking the "
                        + "caller's own (mine).",
                Effect.RO, null, Schemas.noArguments(), data);
    }
}
