package dev.lomicontrol.testing;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one piece of work the crash and fault suites' agents do: {@code lomi_files_mutate} create of
 * {@code created/<requestKey>} in the project, so every effect is a file anyone can count; and the
 * revisions such a request names.
 */
public final class CreatedFiles {

    /** The project directory the files are created in. */
    public static final String DIRECTORY = "created";

    /** A tool call that must succeed; answers the envelope's {@code data}. */
    @FunctionalInterface
    public interface OkCall {
        JsonNode data(String tool, ObjectNode arguments) throws Exception;
    }

    private CreatedFiles() {}

    /** The workspace's domain revision, from {@code lomi_panel_list}. */
    public static String domainRevision(OkCall call, String workspaceId) throws Exception {
        return call.data(
                        "lomi_panel_list",
                        object().put("workspaceId", workspaceId).put("limit", 1))
                .path("domainRevision")
                .asString();
    }

    /** The revision of {@code created/}, from {@code lomi_files_list}. */
    public static String parentRevision(OkCall call, String workspaceId) throws Exception {
        return call.data(
                        "lomi_files_list",
                        object().put("workspaceId", workspaceId)
                                .put("relativeDirectory", DIRECTORY)
                                .put("limit", 1))
                .path("directoryRevision")
                .asString();
    }

    /** The exact arguments of the creation of {@code created/<key>} under {@code key}. */
    public static ObjectNode request(
            String workspaceId, String epoch, String domainRevision, String parentRevision, String key) {
        ObjectNode operation = object().put("type", "create")
                .put("relativePath", DIRECTORY + "/" + key)
                .put("kind", "file")
                .put("expectedParentRevision", parentRevision);
        ObjectNode request = object().put("workspaceId", workspaceId);
        request.set("operation", operation);
        return request.put("expectedRevision", domainRevision)
                .put("retryEpoch", epoch)
                .put("requestKey", key);
    }

    private static ObjectNode object() {
        return McpHelperProcess.JSON.createObjectNode();
    }
}
