package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.pairing.Session;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import tools.jackson.databind.JsonNode;

/** Rules every broker tool shares: native input validation and authority checked before anything else. */
class ToolArgumentsTests {

    /** Every tool the broker answers. */
    static final List<String> TOOLS = dev.lomicontrol.catalog.ToolCatalog.standard().all().stream()
            .filter(spec -> !spec.helperAnswers())
            .map(dev.lomicontrol.tools.ToolSpec::name)
            .sorted()
            .toList();

    /** Every scope a grant can hold, so that authority never hides the verdict on the arguments. */
    static final dev.lomicontrol.pairing.Grant EVERY_SCOPE =
            new dev.lomicontrol.pairing.Grant(true, java.util.Set.of(), dev.lomicontrol.pairing.Scopes.known());

    static List<String> tools() {
        return TOOLS;
    }

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("tools")
    void anUnknownFieldIsRefusedAsInvalidArgument(String tool) {
        Session session = broker.session(EVERY_SCOPE);

        JsonNode envelope = broker.call(session, tool, "{\"surprise\":true}");

        assertThat(envelope.path("code").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(envelope.path("message").asString()).contains("surprise");
    }

    @Test
    void argumentsThatAreNotAnObjectAreRefusedOnEveryTool() {
        Session session = broker.session(EVERY_SCOPE);
        for (String tool : TOOLS) {
            assertThat(broker.refused(session, tool, "[]")).as(tool).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(broker.refused(session, tool, "\"text\"")).as(tool).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        }
    }

    @Test
    void anUnknownToolIsInvalidArgument() {
        assertThat(broker.refused(broker.session(), "lomi_teleport", "{}")).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(broker.calls.call(broker.session(), null, null).path("code").asString())
                .isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void aRevokedSessionGetsControlRevokedOnEveryToolEvenWithBadArguments() {
        broker.project("p1");
        Session session = broker.session(EVERY_SCOPE);
        broker.ok(session, "lomi_session_attach", "{\"externalId\":\"thread-1\"}");

        broker.sessions.revoke(session.id(), "admin revoked it");

        for (String tool : TOOLS) {
            assertThat(broker.refused(session, tool, "{}")).as(tool).isEqualTo(ErrorCode.CONTROL_REVOKED);
            assertThat(broker.refused(session, tool, "{\"surprise\":1}"))
                    .as(tool)
                    .isEqualTo(ErrorCode.CONTROL_REVOKED);
        }
    }
}
