package dev.lomicontrol.terminal.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.testing.Agent;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostQualification;
import dev.lomicontrol.tools.ToolSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * The reference's forms of the terminal tools that need no shell (catalog.md §4.6, §7): the Android
 * form of lomi_panel_control handed to the Android feature (HOST_UNQUALIFIED without adb, an unknown
 * panel TARGET_NOT_FOUND, no receipt either way), the binding the helper runs too, and the
 * reference's hints. The calls with real shells are {@link TerminalReferenceCallsTests}.
 */
class TerminalReferenceFormsTests {

    @RegisterExtension
    final Agent agent = Agent.inProject("ref");

    final String ws = agent.workspace();

    @Test
    void theAndroidFormOfPanelControlGoesToTheAndroidFeatureAndAnUnknownPanelLeavesNoReceipt() {
        String arguments = json(
                "workspaceId",
                ws,
                "panelId",
                "panel-android",
                "deviceId",
                "pixel-8",
                "generation",
                "3",
                "action",
                "claim",
                "expectedRevision",
                agent.broker().revision(),
                "retryEpoch",
                agent.epoch().value(),
                "requestKey",
                "android-claim");

        JsonNode envelope = agent.broker().call(agent.session(), "lomi_panel_control", arguments);

        java.util.Optional<String> noAdb = HostQualification.reason(HostNeed.ANDROID_DEVICES);
        assertThat(envelope.path("code").asString())
                .as("%s", envelope)
                .isEqualTo(noAdb.isPresent() ? "HOST_UNQUALIFIED" : "TARGET_NOT_FOUND");
        assertThat(envelope.path("message").asString()).contains(noAdb.orElse("panel-android"));
        assertThat(agent.refused(
                        "lomi_operation_get",
                        "retryEpoch",
                        agent.epoch().value(),
                        "requestKey",
                        "android-claim",
                        "tool",
                        "lomi_panel_control"))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(TerminalSpecs.PANEL_CONTROL.bind(BrokerCallsFixture.JSON.readTree(arguments)))
                .as("the helper binds it too")
                .isInstanceOf(TerminalSpecs.AndroidControl.class);
    }

    @Test
    void theHelpersBindingAcceptsAndRefusesTheSameCalls() {
        JsonNode seed = create("seed", "cwdRelative", "", "title", "Agent shell");
        TerminalSpecs.Create create = TerminalSpecs.CREATE.bind(seed);
        assertThat(create.directory()).isEqualTo(".");
        assertThat(create.profileId()).isEmpty();
        assertThat(TerminalSpecs.CREATE
                        .inputSchema()
                        .path("properties")
                        .path("cwdRelative")
                        .has("minLength"))
                .isFalse();
        assertThatThrownBy(() -> TerminalSpecs.CREATE.bind(create("up", "cwdRelative", "../up")))
                .isInstanceOf(LomiException.class);
        JsonNode read = Agent.object(
                "workspaceId",
                ws,
                "panelId",
                "p",
                "terminalSessionId",
                "a".repeat(32),
                "mode",
                "screen",
                "minimumParsedSequence",
                "12",
                "cursor",
                null);
        assertThat(TerminalSpecs.READ
                        .bind(read)
                        .minimumParsedSequence()
                        .orElseThrow()
                        .asLong())
                .isEqualTo(12);
    }

    @Test
    void theHintsAreTheReferences() {
        Map<ToolSpec<?>, String> hints = Map.of(
                TerminalSpecs.CREATE,
                "-DIO",
                TerminalSpecs.RUN,
                "-DIO",
                TerminalSpecs.INPUT,
                "-DIO",
                TerminalSpecs.INTERRUPT,
                "-DIO",
                TerminalSpecs.READ,
                "R-I-",
                TerminalSpecs.PANEL_CONTROL,
                "--I-");
        hints.forEach((spec, letters) ->
                assertThat(spec.hints().toString()).as(spec.name()).isEqualTo(letters));
    }

    /** lomi_terminal_create's arguments as a client sends them: the workspace, {@code pairs}, revision "0", {@code key}. */
    private JsonNode create(String key, Object... pairs) {
        return Agent.object(
                        "workspaceId",
                        ws,
                        "expectedRevision",
                        "0",
                        "retryEpoch",
                        agent.epoch().value(),
                        "requestKey",
                        key)
                .setAll(Agent.object(pairs));
    }
}
