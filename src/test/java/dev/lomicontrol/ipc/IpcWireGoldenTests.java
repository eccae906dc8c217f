package dev.lomicontrol.ipc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.Golden;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.json.JsonTest;
import org.springframework.boot.test.json.BasicJsonTester;
import org.springframework.boot.test.json.JacksonTester;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON slice for the private IPC between helper and broker (SPEC §3): each message record's wire
 * form is pinned in {@code golden/ipc/}, written by the real {@link IpcJson} mapper (the testers
 * use it too), read back to the same record, and refused with one field too many. A changed field
 * fails here as a diff; regenerate deliberately with {@code -Dlomi.golden.update=true}.
 */
@JsonTest
@ContextConfiguration(classes = IpcWireGoldenTests.Wire.class)
class IpcWireGoldenTests {

    /** Nothing but the JSON slice (Boot's JSON testers); the Jackson testers are bound to the wire's own mapper below. */
    @Configuration(proxyBeanMethods = false)
    static class Wire {}

    @BeforeEach
    void wireMapper() {
        JacksonTester.initFields(this, IpcJson.MAPPER);
    }

    static final String INSTANCE = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    static final String CERTIFICATE = "MIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGUgYnl0ZXM=";

    /** The slice's own tester (auto-configured by {@code @JsonTest}): reads golden files by JSON path. */
    @Autowired
    BasicJsonTester basic;

    JacksonTester<Enrollment> enrollment;
    JacksonTester<Welcome> welcome;
    JacksonTester<PairingOutcome> outcome;
    JacksonTester<CallRequest> request;
    JacksonTester<CallResponse> response;

    @Test
    void anEnrollmentIsPinned() throws Exception {
        Enrollment sample = new Enrollment(IpcJson.IPC_VERSION, INSTANCE, "claude-code in ~/repo", CERTIFICATE);
        String golden = pinned(enrollment, "enrollment", sample, Enrollment.class);
        assertThat(basic.from(golden))
                .extractingJsonPathNumberValue("@.ipcVersion")
                .isEqualTo(IpcJson.IPC_VERSION);
        assertThat(IpcJson.read(golden.getBytes(StandardCharsets.UTF_8), Enrollment.class))
                .isEqualTo(sample);
    }

    @Test
    void aWelcomeIsPinned() throws Exception {
        Welcome sample = new Welcome(IpcJson.IPC_VERSION, INSTANCE, CERTIFICATE, "pr-7f3a");
        pinned(welcome, "welcome", sample, Welcome.class);
    }

    @Test
    void eachPairingOutcomeIsPinned() throws Exception {
        for (PairingOutcome sample : new PairingOutcome[] {
            new PairingOutcome(PairingOutcome.APPROVED, "approved; terminals run unsandboxed"),
            new PairingOutcome(PairingOutcome.DENIED, "denied by the admin"),
            new PairingOutcome(PairingOutcome.REFUSED, "expired after 120 s")
        }) {
            pinned(outcome, "pairing-outcome-" + sample.outcome(), sample, PairingOutcome.class);
        }
    }

    @Test
    void aCallRequestIsPinned() throws Exception {
        ObjectNode arguments =
                JsonNodeFactory.instance.objectNode().put("workspaceId", "ws-1").put("limit", 10);
        arguments.putArray("paths").add("src/Main.java");
        CallRequest sample = new CallRequest(IpcJson.IPC_VERSION, "r17", "lomi_files_read", arguments);
        pinned(request, "call-request", sample, CallRequest.class);
    }

    @Test
    void aCallResponseIsPinnedWithTheEnvelopeItCarries() throws Exception {
        CallResponse ok = new CallResponse(
                "r17",
                Envelope.ok(JsonNodeFactory.instance
                        .objectNode()
                        .put("kind", "workspace_list")
                        .put("total", 1)));
        pinned(response, "call-response-ok", ok, CallResponse.class);

        CallResponse refused = new CallResponse(
                "r18", Envelope.error(ErrorCode.SCOPE_DENIED, "this session may not write to project p-1"));
        String error = Golden.pin("ipc", "call-response-error", IpcJson.write(refused));
        assertThat(response.parseObject(error)).isEqualTo(refused);
    }

    /**
     * Pins {@code sample} as {@code golden/ipc/name}: the tester writes exactly the golden and reads it back
     * to the sample, and the golden with one field too many is refused; answers the golden.
     */
    private static <T> String pinned(JacksonTester<T> tester, String name, T sample, Class<T> type) throws Exception {
        String golden = Golden.pin("ipc", name, IpcJson.write(sample));
        assertThat(tester.write(sample)).isStrictlyEqualToJson(golden);
        assertThat(tester.parseObject(golden)).isEqualTo(sample);
        ObjectNode extended = (ObjectNode) Golden.tree(golden);
        extended.put("addedLater", true);
        Refused.asInvalidArgument(() -> IpcJson.read(Refused.bytes(extended.toString()), type));
        return golden;
    }
}
