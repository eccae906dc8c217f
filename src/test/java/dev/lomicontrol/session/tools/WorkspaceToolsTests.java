package dev.lomicontrol.session.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/** {@code lomi_workspace_list} paging, revision-bound cursors and grant filtering; {@code lomi_connect}'s retry epoch. */
class WorkspaceToolsTests {

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    @Test
    void theListPagesThroughEveryGrantedWorkspaceWithCursorsUntilNoMore() {
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            expected.add(workspaceOf(broker.project("p" + i)));
            broker.clock.advance(Duration.ofSeconds(1));
        }
        Session session = broker.session();

        JsonNode first = list(session, "{\"limit\":2}");
        JsonNode second = list(
                session, "{\"limit\":2,\"cursor\":\"" + first.path("nextCursor").asString() + "\"}");
        JsonNode third = list(
                session,
                "{\"limit\":2,\"cursor\":\"" + second.path("nextCursor").asString() + "\"}");

        assertThat(first.path("kind").asString()).isEqualTo("workspace_list");
        assertThat(first.path("domainRevision").asString()).isEqualTo(Long.toString(broker.projects.revision()));
        assertThat(first.path("hasMore").asBoolean()).isTrue();
        assertThat(second.path("hasMore").asBoolean()).isTrue();
        assertThat(third.path("hasMore").asBoolean()).isFalse();
        assertThat(third.path("nextCursor").isNull()).isTrue();
        List<String> seen = new ArrayList<>();
        for (JsonNode page : List.of(first, second, third)) {
            page.path("workspaces").forEach(w -> seen.add(w.path("workspaceId").asString()));
        }
        assertThat(seen).containsExactlyElementsOf(expected);
        JsonNode item = first.path("workspaces").get(0);
        assertThat(item.path("projectName").asString()).isEqualTo("p1");
        assertThat(item.path("projectPath").asString()).endsWith("p1");
        assertThat(item.path("projectId").asString()).startsWith("prj-");
    }

    @Test
    void theDefaultPageHoldsAHundredWorkspaces() {
        broker.project("only");

        JsonNode page = broker.ok(broker.session(), "lomi_workspace_list", "{}");

        assertThat(page.path("workspaces")).hasSize(1);
        assertThat(page.path("hasMore").asBoolean()).isFalse();
        assertThat(broker.ok(broker.session(), "lomi_workspace_list", "null").path("workspaces"))
                .hasSize(1);
    }

    @Test
    void aCursorFromAnotherRevisionIsExpired() {
        Session session = sessionOverTwoProjects();
        String cursor = list(session, "{\"limit\":1}").path("nextCursor").asString();

        broker.project("p3");

        assertThat(listRefused(session, "{\"limit\":1,\"cursor\":\"" + cursor + "\"}"))
                .isEqualTo(ErrorCode.CURSOR_EXPIRED);
    }

    @Test
    void aCursorFromAnotherBrokerRunIsExpiredAndAMalformedOneIsInvalid() {
        Session session = sessionOverTwoProjects();
        String revision = list(session, "{}").path("domainRevision").asString();

        assertThat(listRefused(session, "{\"cursor\":\"" + revision + ":1:" + "ab".repeat(16) + "\"}"))
                .isEqualTo(ErrorCode.CURSOR_EXPIRED);
        assertThat(listRefused(session, "{\"cursor\":\"page-2\"}")).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(listRefused(session, "{\"cursor\":7}")).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void aNarrowedGrantSeesOnlyItsProjectsAndOthersAreNotFoundLikeUnknownOnes() {
        Project granted = broker.project("granted");
        Project hidden = broker.project("hidden");
        Session session = broker.session(new Grant(false, Set.of(granted.id()), Scopes.all()));

        JsonNode page = list(session, "{}");

        assertThat(page.path("workspaces"))
                .singleElement()
                .satisfies(w -> assertThat(w.path("workspaceId").asString()).isEqualTo(workspaceOf(granted)));
        assertThat(page.toString()).doesNotContain(hidden.id().value()).doesNotContain("hidden");
        assertThat(broker.refused(session, "lomi_connect", "{\"workspaceId\":\"" + workspaceOf(hidden) + "\"}"))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(broker.refused(session, "lomi_connect", "{\"workspaceId\":\"ws-nope\"}"))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(broker.ok(session, "lomi_connect", "{\"workspaceId\":\"" + workspaceOf(granted) + "\"}")
                        .path("projectId")
                        .asString())
                .isEqualTo(granted.id().value());
    }

    @Test
    void connectWithoutAWorkspaceTakesTheOnlyOneAndAnswersTheLayoutRevision() {
        Project only = broker.project("only");
        Session session = broker.session();

        JsonNode connection = broker.ok(session, "lomi_connect", "{}");

        assertThat(connection.path("workspaceId").asString()).isEqualTo(workspaceOf(only));
        assertThat(connection.path("domainRevision").asString()).isEqualTo(broker.revision());
        assertThat(broker.ok(session, "lomi_connect", "{\"workspaceId\":null}")
                        .path("retryEpoch")
                        .asString())
                .isEqualTo(connection.path("retryEpoch").asString());
    }

    @Test
    void connectWithoutAWorkspaceAmongSeveralIsRefusedNamingThem() {
        Project first = broker.project("first");
        Project second = broker.project("second");
        Session session = broker.session();

        JsonNode envelope = broker.call(session, "lomi_connect", "{}");

        assertThat(envelope.path("code").asString()).isEqualTo("INVALID_ARGUMENT");
        assertThat(envelope.path("message").asString())
                .contains(workspaceOf(first), workspaceOf(second), "workspaceId");
        Session none = broker.session(new Grant(false, Set.of(), Scopes.all()));
        assertThat(broker.refused(none, "lomi_connect", "{}")).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    @Test
    void limitsOutsideOneToFiveHundredAreRefused() {
        Session session = broker.session();
        for (String limit : List.of("0", "501", "-1", "1.5", "\"10\"", "true", "99999999999")) {
            assertThat(listRefused(session, "{\"limit\":" + limit + "}"))
                    .as(limit)
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        }
        assertThat(list(session, "{\"limit\":500}").path("kind").asString()).isEqualTo("workspace_list");
    }

    @Test
    void connectReturnsTheSameRetryEpochWhileItIsValidAndANewOneAfterItExpired() {
        Project project = broker.project("p1");
        Session session = broker.session();

        String first = broker.connect(session, project).value();
        broker.clock.advance(Duration.ofHours(23));
        String again = broker.connect(session, project).value();
        broker.clock.advance(Duration.ofHours(2));
        String renewed = broker.connect(session, project).value();

        assertThat(again).isEqualTo(first);
        assertThat(renewed).isNotEqualTo(first);
        assertThat(broker.connect(broker.session(), project).value()).isNotEqualTo(renewed);
    }

    @Test
    void aSessionThatEndedGetsAFreshEpochOnItsNextConnect() {
        Project project = broker.project("p1");
        Session session = broker.session();
        String first = broker.connect(session, project).value();

        broker.calls.sessionEnded(session);

        assertThat(broker.connect(session, project).value()).isNotEqualTo(first);
    }

    /** Two projects, then a session granted every project: a page of one workspace has more. */
    private Session sessionOverTwoProjects() {
        broker.project("p1");
        broker.project("p2");
        return broker.session();
    }

    private JsonNode list(Session session, String arguments) {
        return broker.ok(session, "lomi_workspace_list", arguments);
    }

    private ErrorCode listRefused(Session session, String arguments) {
        return broker.refused(session, "lomi_workspace_list", arguments);
    }
}
