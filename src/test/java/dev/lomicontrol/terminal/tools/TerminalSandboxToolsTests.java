package dev.lomicontrol.terminal.tools;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.terminal.SandboxPolicy;
import dev.lomicontrol.terminal.TerminalSandbox;
import dev.lomicontrol.terminal.Terminals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The terminal sandbox's settings and refusals through the broker's dispatcher, with real
 * bubblewrap, real bash and zsh in real PTYs (SPEC §10 "Terminal sandbox").
 */
class TerminalSandboxToolsTests {

    static final Duration SETTLE = Duration.ofSeconds(30);
    static final Supplier<Optional<Path>> BWRAP = () -> Optional.of(Path.of("/usr/bin/bwrap"));

    @TempDir
    Path temp;

    BrokerCallsFixture broker;
    Project project;
    final AtomicInteger keys = new AtomicInteger();

    @AfterEach
    void close() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void bashAndZshKeepTheirShellIntegrationInsideTheSandbox() {
        assertThat(Path.of("/usr/bin/bwrap"))
                .as("install bubblewrap: " + TerminalSandbox.INSTALL)
                .exists();
        assertThat(Terminals.installedProfiles())
                .as("install zsh: apt-get install zsh")
                .contains("zsh");
        open(policy -> policy, BWRAP);
        Session session = broker.session();
        RetryEpochId epoch = broker.connect(session, project);
        for (String profile : List.of("bash", "zsh")) {
            CreatedTerminal terminal = create(session, epoch, profile);
            assertThat(exitCode(session, epoch, terminal, "echo in-$0 > ./" + profile + ".txt"))
                    .isZero();
            JsonNode failed = run(session, epoch, terminal, "(exit 3)");
            assertThat(failed.path("state").asString()).as(profile).isEqualTo("failed");
            assertThat(failed.path("result").path("exitCode").asInt())
                    .as(profile)
                    .isEqualTo(3);
            assertThat(exitCode(session, epoch, terminal, "echo x > ~/x"))
                    .as(profile + ": home read-only")
                    .isNotZero();
        }
        assertThat(project.root().resolve("bash.txt")).content().contains("in-");
        assertThat(project.root().resolve("zsh.txt")).content().contains("in-");
    }

    @Test
    void withoutBubblewrapTerminalCreateAnswersHostUnqualifiedNamingThePackage() {
        open(policy -> policy, Optional::empty);
        Session session = broker.session();
        JsonNode answer =
                broker.call(session, "lomi_terminal_create", createArguments(broker.connect(session, project), "bash"));

        assertThat(answer.path("code").asString()).isEqualTo(ErrorCode.HOST_UNQUALIFIED.name());
        assertThat(answer.path("message").asString()).contains("apt-get install bubblewrap");
        assertThat(broker.terminals.all()).isEmpty();
    }

    @Test
    void aBubblewrapThatCannotCreateASandboxIsHostUnqualifiedToo() {
        open(policy -> policy, () -> Optional.of(Path.of("/bin/false")));
        Session session = broker.session();
        JsonNode answer =
                broker.call(session, "lomi_terminal_create", createArguments(broker.connect(session, project), "bash"));

        assertThat(answer.path("code").asString()).isEqualTo(ErrorCode.HOST_UNQUALIFIED.name());
        assertThat(answer.path("message").asString()).contains("cannot create a sandbox", TerminalSandbox.INSTALL);
    }

    @Test
    void withTheSandboxTurnedOffOnlyTheUnsandboxedScopeCreatesATerminalAndNoDefaultGrantHoldsIt() {
        open(policy -> policy.withEnabled(false), Optional::empty);
        assertThat(Grant.full().scopes()).doesNotContain(Scopes.TERMINAL_UNSANDBOXED);
        assertThat(broker.terminals.sandbox().warning()).get().asString().contains("sandbox OFF");
        Session flagless = broker.session();
        assertThat(broker.refused(
                        flagless, "lomi_terminal_create", createArguments(broker.connect(flagless, project), "bash")))
                .isEqualTo(ErrorCode.SCOPE_DENIED);

        Session named = broker.session(new Grant(true, Set.of(), Scopes.validate(Scopes.known())));
        RetryEpochId epoch = broker.connect(named, project);
        CreatedTerminal terminal = create(named, epoch, "bash");
        assertThat(exitCode(named, epoch, terminal, "test -e " + temp.resolve("agent-control")))
                .as("unsandboxed, the broker's data directory is there to read")
                .isZero();

        assertThat(broker.refused(
                        flagless,
                        "lomi_panel_control",
                        terminal.read(
                                "action",
                                "claim",
                                "retryEpoch",
                                broker.connect(flagless, project).value(),
                                "requestKey",
                                "claim-" + keys.incrementAndGet())))
                .as("claiming an unsandboxed shell gives what creating one would: it needs the same scope")
                .isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    @Test
    void theGitWritableSettingOpensDotGitAndNetworkOffLeavesOnlyLoopback() throws Exception {
        open(policy -> policy.withGitWritable(true).withNetwork(false), BWRAP);
        Files.createDirectories(project.root().resolve(".git/hooks"));
        Session session = broker.session();
        RetryEpochId epoch = broker.connect(session, project);
        CreatedTerminal terminal = create(session, epoch, "bash");

        assertThat(exitCode(session, epoch, terminal, "echo x > .git/hooks/x")).isZero();
        assertThat(exitCode(session, epoch, terminal, "test \"$(grep -c : /proc/net/dev)\" = 1"))
                .as("one interface: lo")
                .isZero();
        assertThat(exitCode(session, epoch, terminal, "echo x > .mcp.json")).isNotZero();
    }

    @Test
    void moreHiddenLocationsBySettingAreInvisibleAndSoIsTheBrokersStore() throws Exception {
        Path vault = Files.createDirectories(temp.resolve("empty-home/vault"));
        Files.writeString(vault.resolve("key"), "k");
        open(policy -> policy.withHidden(List.of(vault)), BWRAP);
        Session session = broker.session();
        RetryEpochId epoch = broker.connect(session, project);
        CreatedTerminal terminal = create(session, epoch, "bash");

        assertThat(exitCode(session, epoch, terminal, "test -z \"$(ls -A " + vault + ")\""))
                .isZero();
        assertThat(exitCode(session, epoch, terminal, "test -e " + temp.resolve("agent-control/control.sqlite3")))
                .isNotZero();
    }

    private void open(UnaryOperator<SandboxPolicy> policy, Supplier<Optional<Path>> bubblewrap) {
        broker = new BrokerCallsFixture(temp, policy, bubblewrap);
        project = broker.project("sandboxed");
    }

    private String createArguments(RetryEpochId epoch, String profile) {
        return json(
                "workspaceId",
                workspaceOf(project),
                "expectedRevision",
                broker.revision(),
                "profileId",
                profile,
                "retryEpoch",
                epoch.value(),
                "requestKey",
                "create-" + keys.incrementAndGet());
    }

    private CreatedTerminal create(Session session, RetryEpochId epoch, String profile) {
        JsonNode op = broker.ok(session, "lomi_terminal_create", createArguments(epoch, profile));
        assertThat(op.path("state").asString()).as("%s", op).isEqualTo("succeeded");
        CreatedTerminal terminal = new CreatedTerminal(op.path("result"));
        awaitReady(session, terminal);
        return terminal;
    }

    private void awaitReady(Session session, CreatedTerminal terminal) {
        await().atMost(SETTLE)
                .until(() -> broker.ok(session, "lomi_terminal_read", terminal.read())
                        .path("prompt")
                        .asString()
                        .equals("ready"));
    }

    /** The exit code of {@code command} run to its end in {@code terminal}. */
    private int exitCode(Session session, RetryEpochId epoch, CreatedTerminal terminal, String command) {
        return run(session, epoch, terminal, command)
                .path("result")
                .path("exitCode")
                .asInt();
    }

    private JsonNode run(Session session, RetryEpochId epoch, CreatedTerminal terminal, String command) {
        // a run settles when the command ends (OSC 133 D); the next may start once the prompt is back (A)
        awaitReady(session, terminal);
        JsonNode started = broker.ok(
                session,
                "lomi_terminal_run",
                terminal.read(
                        "leaseId",
                        terminal.lease,
                        "command",
                        command,
                        "retryEpoch",
                        epoch.value(),
                        "requestKey",
                        "run-" + keys.incrementAndGet()));
        JsonNode settled = broker.settled(session, started.path("operationId").asString(), SETTLE);
        assertThat(settled.path("state").asString())
                .as("%s: %s", command, settled)
                .isIn("succeeded", "failed");
        return settled;
    }
}
