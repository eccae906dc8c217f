package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.ipc.Envelope;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A PNG the broker sends with a screenshot (or a PNG artifact read) leaves the helper as a standard
 * MCP {@code image} block ({@code image/png}); the private base64 field never reaches
 * {@code structuredContent} or the text block.
 */
class ImageResultsTests {

    @Test
    void thePrivatePngFieldBecomesAnImageBlock() {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("kind", "artifact");
        data.put(dev.lomicontrol.tools.ImageBlock.FIELD, "iVBORw0KGgo=");
        JsonNode result = CallResults.of(Envelope.ok(data), ProtocolVersion.V2025_11_25);

        assertThat(result.at("/content/0/type").asString()).isEqualTo("text");
        assertThat(result.at("/content/0/text").asString())
                .doesNotContain(dev.lomicontrol.tools.ImageBlock.FIELD)
                .doesNotContain("iVBORw0KGgo=");
        assertThat(result.at("/content/1/type").asString()).isEqualTo("image");
        assertThat(result.at("/content/1/mimeType").asString()).isEqualTo("image/png");
        assertThat(result.at("/content/1/data").asString()).isEqualTo("iVBORw0KGgo=");
        assertThat(result.at("/structuredContent/data").has(dev.lomicontrol.tools.ImageBlock.FIELD))
                .isFalse();
        assertThat(result.path("isError").asBoolean()).isFalse();
    }

    @Test
    void anAnswerWithoutAPngHasOnlyTheTextBlock() {
        JsonNode result = CallResults.of(
                Envelope.ok(JsonNodeFactory.instance.objectNode().put("kind", "artifact")),
                ProtocolVersion.V2025_11_25);
        assertThat(result.path("content").size()).isEqualTo(1);
    }
}
