package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.broker.BrokerCalls;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.projects.BrowserOrigins;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.TestSite;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The admin's side of browser origins in the real broker context: an agent's lomi_browser_open of a
 * new origin shows in {@code decision list} with the exact origin, {@code decision approve} opens it
 * and remembers the origin ({@code browser origins list}), {@code browser origins revoke} forgets it.
 */
// its operations and conversations stay in the shared context's ledger: a fresh context (and data directory) for the
// classes after it
@org.springframework.test.annotation.DirtiesContext
class BrowserConsoleTests extends ConsoleTestSupport {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    BrokerCalls calls;

    @Autowired
    Sessions sessions;

    @Autowired
    Projects projects;

    @Autowired
    BrowserOrigins origins;

    @Test
    void aNewOriginIsApprovedInTheConsoleRememberedListedAndRevoked() throws Exception {
        try (TestSite site = new TestSite()) {
            Project project = projects.add(
                    Files.createDirectories(temp.resolve("site")).toRealPath(),
                    Optional.of("site-" + System.nanoTime()));
            PairingRequest request = new PairingRequest(
                    "pr-" + HexFormat.of().toHexDigits(System.nanoTime()),
                    "browser agent",
                    "98".repeat(32),
                    4712,
                    clock.instant(),
                    clock.instant().plus(Duration.ofMinutes(2)));
            Session session = sessions.open(request, new Grant(true, Set.of(), Scopes.all()), () -> {});
            String workspace = project.workspaces().get(0).id().value();
            String epoch = data(calls.call(
                            session, "lomi_connect", JSON.readTree("{\"workspaceId\":\"" + workspace + "\"}")))
                    .path("retryEpoch")
                    .asString();
            String revision = Long.toString(projects.revision());
            JsonNode waiting = data(calls.call(
                    session,
                    "lomi_browser_open",
                    JSON.readTree("{\"workspaceId\":\"" + workspace + "\",\"url\":\"" + site.url("/")
                            + "\",\"expectedRevision\":\"" + revision + "\",\"retryEpoch\":\"" + epoch
                            + "\",\"requestKey\":\"open-1\"}")));
            String operation = waiting.path("operationId").asString();
            assertThat(waiting.path("state").asString()).isEqualTo("awaiting_user");

            assertThat(ok("decision list"))
                    .contains(
                            operation,
                            "lomi_browser_open",
                            "browse " + site.origin(),
                            "\"origin\":\"" + site.origin() + "\"");
            assertThat(ok("decision approve " + operation)).contains("approved " + operation);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> data(calls.call(
                                    session,
                                    "lomi_operation_get",
                                    JSON.readTree("{\"operationId\":\"" + operation + "\"}")))
                            .path("state")
                            .asString()
                            .equals("succeeded"));

            assertThat(origins.approved(project.id(), site.origin())).isTrue();
            assertThat(ok("browser origins list"))
                    .contains(project.id().value(), site.origin(), "decision " + operation);
            assertThat(ok("browser origins list --project " + project.name())).contains(site.origin());
            JsonNode listed = JSON.readTree(ok("browser origins list --json --project " + project.id()));
            assertThat(listed.at("/origins/0/origin").asString()).isEqualTo(site.origin());
            assertThat(listed.at("/origins/0/projectId").asString())
                    .isEqualTo(project.id().value());
            assertThat(ok("browser origins revoke " + project.id() + " " + site.origin()))
                    .contains("revoked " + site.origin());
            assertThat(origins.approved(project.id(), site.origin())).isFalse();
            assertThat(fails("browser origins revoke " + project.id() + " " + site.origin(), 1))
                    .contains("TARGET_NOT_FOUND");
            assertThat(ok("browser origins list --project " + project.id()))
                    .contains("no browser origins are approved");
            calls.sessionEnded(session);
        }
    }

    private static JsonNode data(JsonNode envelope) {
        assertThat(envelope.path("status").asString()).as("%s", envelope).isEqualTo("ok");
        return envelope.path("data");
    }
}
