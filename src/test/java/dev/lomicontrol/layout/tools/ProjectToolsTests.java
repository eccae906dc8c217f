package dev.lomicontrol.layout.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.testing.Agent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Projects over a real SQLite ledger: opening one waits for the admin, who approves the canonical
 * folder (a rejection, YOLO, a cancel and bad paths settle or refuse without the admin waiting); an
 * approval grants it to the session; closing one removes its workspaces and never the folder.
 */
class ProjectToolsTests {

    @TempDir
    Path temp;

    @RegisterExtension
    final Agent agent = Agent.inProject("alpha");

    final BrokerCallsFixture broker = agent.broker();
    final Session session = agent.session();
    final Project project = agent.project();

    @Test
    void theAdminApprovesTheCanonicalFolderNotTheTextTheAgentSent() throws Exception {
        Path folder = folder("gamma");
        Files.createDirectories(folder.resolve("sub"));
        String sneaky = folder + "/sub/..";
        JsonNode parked = open(sneaky, "gamma");

        assertThat(broker.decisions.list()).singleElement().satisfies(d -> {
            assertThat(d.summary()).startsWith("open " + folder + " (requested as " + sneaky + ")");
            assertThat(d.plan()).contains("\"folder\":\"" + folder + "\"");
        });
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), false);
    }

    @Test
    void openingAProjectWaitsForTheAdminAndAnApprovalGrantsItToTheSession() {
        Path folder = folder("beta");
        JsonNode parked = open(folder.toString(), "beta");
        assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
        assertThat(broker.decisions.list()).singleElement().satisfies(d -> {
            assertThat(d.plan()).contains(folder.toString());
            assertThat(d.tool()).isEqualTo("lomi_project_open");
        });
        Session limited = broker.session(new Grant(false, Set.of(project.id()), dev.lomicontrol.pairing.Scopes.all()));
        assertThat(broker.ok(limited, "lomi_workspace_list", "{}").path("workspaces"))
                .hasSize(1);

        JsonNode done = decided(parked, true);
        assertThat(done.path("state").asString()).isEqualTo("succeeded");
        assertThat(done.path("result").path("kind").asString()).isEqualTo("project_opened");
        assertThat(done.path("result").path("projectPath").asString()).isEqualTo(folder.toString());
        assertThat(broker.projects.list()).extracting(Project::root).contains(folder);
    }

    @Test
    void aLimitedSessionIsGrantedTheProjectItOpened() {
        Session limited = broker.session(new Grant(false, Set.of(project.id()), dev.lomicontrol.pairing.Scopes.all()));
        RetryEpochId limitedEpoch = broker.connect(limited, project);
        Path folder = folder("gamma");
        JsonNode parked = broker.ok(
                limited,
                "lomi_project_open",
                LayoutTestSupport.withOp(
                        json("workspaceId", workspaceOf(project), "projectPath", folder.toString(), "name", "gamma"),
                        broker.revision(),
                        "open-gamma",
                        limitedEpoch));
        broker.decisions.decide(new OperationId(parked.path("operationId").asString()), true);

        assertThat(broker.ok(limited, "lomi_workspace_list", "{}").path("workspaces"))
                .hasSize(2);
    }

    @Test
    void aRejectedOrYoloProjectOpenSettlesWithoutTheAdminWaiting() {
        JsonNode parked = open(folder("rej").toString(), "rej");
        JsonNode rejected = decided(parked, false);
        assertThat(rejected.path("state").asString()).isEqualTo("failed");
        assertThat(rejected.path("effectState").asString()).isEqualTo("none");
        assertThat(rejected.path("errorCode").asString()).isEqualTo("SCOPE_DENIED");
        assertThat(broker.projects.list()).hasSize(1);

        broker.yolo.set(true);
        JsonNode yolo = open(folder("yes").toString(), "yes");
        assertThat(yolo.path("state").asString()).isEqualTo("succeeded");
        assertThat(broker.decisions.list()).isEmpty();
        assertThat(broker.projects.list()).hasSize(2);
    }

    @Test
    void anAwaitingProjectOpenCancelledByItsOwnerLeavesTheAdminsList() {
        JsonNode parked = open(folder("c").toString(), "c");
        JsonNode cancelled = broker.ok(
                session,
                "lomi_operation_cancel",
                json("operationId", parked.path("operationId").asString()));
        assertThat(cancelled.path("state").asString()).isEqualTo("cancelled");
        assertThat(broker.decisions.list()).isEmpty();
    }

    @Test
    void badProjectPathsAreRefusedBeforeAnyReceipt() {
        Path file = folder("f").resolve("file.txt");
        write(file);
        for (String path : List.of(
                "relative/path",
                file.toString(),
                temp.resolve("missing").toString(),
                project.root().toString())) {
            assertThat(broker.refused(
                            session,
                            "lomi_project_open",
                            op("workspaceId", workspaceOf(project), "projectPath", path, "name", "n")))
                    .as(path)
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        }
        assertThat(broker.decisions.list()).isEmpty();
    }

    @Test
    void closingAProjectRemovesItsWorkspacesAndNeverTheFolder() {
        broker.ok(session, "lomi_workspace_create", op("workspaceId", workspaceOf(project), "name", "extra"));
        JsonNode closed = broker.ok(
                session,
                "lomi_project_close",
                op(
                        "workspaceId",
                        workspaceOf(project),
                        "projectId",
                        project.id().value()));

        assertThat(closed.path("state").asString()).isEqualTo("succeeded");
        assertThat(closed.path("result").path("closedWorkspaceIds")).hasSize(2);
        assertThat(broker.projects.list()).isEmpty();
        assertThat(Files.isDirectory(project.root())).isTrue();
        assertThat(broker.refused(session, "lomi_panel_list", json("workspaceId", workspaceOf(project))))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    @Test
    void theAdminsOwnRunningTerminalKeepsItsWorkspaceAndProjectFromAnAgentsClose() {
        broker.ok(session, "lomi_workspace_create", op("workspaceId", workspaceOf(project), "name", "extra"));
        String panel = broker.terminals.startPlaced(
                "bash",
                project.root(),
                project.root(),
                80,
                24,
                65_536,
                terminal -> broker.layout
                        .addTerminalPanel(
                                OptionalLong.empty(),
                                project.workspaces().get(0).id(),
                                "admin",
                                terminal.id(),
                                Optional.empty(),
                                "bash",
                                ".")
                        .panel()
                        .id());

        JsonNode project = broker.call(
                session,
                "lomi_project_close",
                op(
                        "workspaceId",
                        workspaceOf(this.project),
                        "projectId",
                        this.project.id().value()));
        assertThat(project.path("code").asString()).isEqualTo(ErrorCode.SCOPE_DENIED.name());
        assertThat(project.path("message").asString()).contains("the admin's own running terminal " + panel);
        JsonNode workspace = broker.call(
                session, "lomi_workspace_update", op("workspaceId", workspaceOf(this.project), "action", "close"));
        assertThat(workspace.path("code").asString()).isEqualTo(ErrorCode.SCOPE_DENIED.name());
        assertThat(broker.projects.list()).as("nothing was closed").hasSize(1);
    }

    /** A {@code lomi_project_open} of {@code projectPath} from the agent's workspace (a durable call that must succeed). */
    private JsonNode open(String projectPath, String name) {
        return broker.ok(
                session,
                "lomi_project_open",
                op("workspaceId", workspaceOf(project), "projectPath", projectPath, "name", name));
    }

    /** The admin's decision on the parked operation, then the operation as its session reads it. */
    private JsonNode decided(JsonNode parked, boolean approve) {
        String operationId = parked.path("operationId").asString();
        broker.decisions.decide(new OperationId(operationId), approve);
        return broker.ok(session, "lomi_operation_get", json("operationId", operationId));
    }

    private String op(Object... pairs) {
        return LayoutTestSupport.op(agent, pairs);
    }

    private Path folder(String name) {
        return LayoutTestSupport.folder(temp, name);
    }

    private static void write(Path file) {
        LayoutTestSupport.write(file);
    }
}
