package dev.lomicontrol.artifacts;

import java.time.Instant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The versioned {@code <id>.json} metadata file of an artifact. */
final class ArtifactJson {

    static final int VERSION = 1;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ArtifactJson() {}

    static byte[] write(Artifact artifact) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("version", VERSION);
        node.put("id", artifact.id());
        node.put("owner", artifact.owner());
        node.put("projectKey", artifact.projectKey());
        node.put("relativePath", artifact.relativePath());
        node.put("sha256", artifact.sha256());
        node.put("byteLength", artifact.byteLength());
        node.put("createdAt", artifact.createdAt().toString());
        node.put("expiresAt", artifact.expiresAt().toString());
        node.put("sourceDiskRevision", artifact.sourceDiskRevision());
        node.put("mediaType", artifact.mediaType());
        node.put("source", artifact.source());
        return JSON.writeValueAsBytes(node);
    }

    /** The artifact in {@code bytes}; IllegalArgumentException when it is not a complete version-1 record. */
    static Artifact read(byte[] bytes) {
        JsonNode node = JSON.readTree(bytes);
        if (node == null || !node.isObject() || node.path("version").asInt(-1) != VERSION) {
            throw new IllegalArgumentException("not version-" + VERSION + " artifact metadata");
        }
        JsonNode length = node.path("byteLength");
        if (!length.isIntegralNumber() || length.longValue() < 0) {
            throw new IllegalArgumentException("byteLength must be a non-negative integer");
        }
        return new Artifact(
                text(node, "id"),
                text(node, "owner"),
                text(node, "projectKey"),
                text(node, "relativePath"),
                text(node, "sha256"),
                length.longValue(),
                Instant.parse(text(node, "createdAt")),
                Instant.parse(text(node, "expiresAt")),
                text(node, "sourceDiskRevision"),
                node.path("mediaType").asString(Artifact.OCTET_STREAM),
                node.path("source").asString(""));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isString()) {
            throw new IllegalArgumentException("missing " + field);
        }
        return value.stringValue();
    }
}
