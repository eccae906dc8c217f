package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.decisions.PendingDecision;
import dev.lomicontrol.pairing.Decision;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.pairing.YoloPolicy;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Every command group, run as console lines through the real executor against a real broker context. */
class ConsoleCommandsTests extends ConsoleTestSupport {

    @Autowired
    Pairings pairings;

    @Autowired
    Sessions sessions;

    @Autowired
    YoloPolicy yolo;

    @Autowired
    Projects projects;

    @Autowired
    DecisionBoard decisions;

    @Test
    void statusShowsTheInstanceSocketsSessionsAndLedger() {
        String status = ok("status");
        assertThat(status)
                .contains(
                        "instance:",
                        "data dir:",
                        "admin socket:",
                        "discovery file:",
                        "sessions:",
                        "YOLO off",
                        "receipts 0 / 4096",
                        "integrity:");
    }

    @Test
    void helpListsTheCommandGroupsAndExplainsOneCommand() {
        assertThat(ok("help"))
                .contains(
                        "PAIRING", "pairing approve", "LEDGER", "ledger purge", "CLIENTS", "client register", "status");
        assertThat(ok("help ledger")).contains("ledger export", "ledger check").doesNotContain("pairing");
        assertThat(ok("help pairing approve"))
                .startsWith("pairing approve <id>... [--projects a,b] [--scopes x,y] [--android-devices s,avd]"
                        + " [--android-packages p,q]\npairing approve --all --confirm");
        assertThat(ok("ledger purge --help")).contains("--confirm");
        assertThat(fails("help nonsense", 2)).contains("no command 'nonsense'");
    }

    @Test
    void pairingListShowsEachPendingRequestWithFingerprintAndPid() {
        Pairings.Pending pending = pairings.submit("claude-code in ~/repo", "ab".repeat(32), 4242);
        try {
            assertThat(ok("pairing list"))
                    .contains(pending.request().id(), "claude-code in ~/repo", "ab".repeat(32), "4242", "EXPIRES");
        } finally {
            pairings.withdraw(pending.request().id());
        }
    }

    @Test
    void approvingWithoutFlagsGrantsEveryProjectAndTheFullScopeSet() throws Exception {
        Pairings.Pending pending = pairings.submit("codex", "cd".repeat(32), 7);

        Project existing = projects.add(
                Files.createDirectories(
                                temp.resolve("existing-" + pending.request().id()))
                        .toRealPath(),
                Optional.empty());
        assertThat(ok("pairing approve " + pending.request().id()))
                .contains("current project(s), not later ones", Scopes.all().size() + " of ");
        Grant grant = ((Decision.Approved) pending.decision().get()).grant();
        Project later = projects.add(
                Files.createDirectories(
                                temp.resolve("later-" + pending.request().id()))
                        .toRealPath(),
                Optional.empty());
        assertThat(grant.allProjects()).isFalse();
        assertThat(grant.covers(existing.id())).isTrue();
        assertThat(grant.covers(later.id()))
                .as("F8: not a project added after the approval")
                .isFalse();
        assertThat(grant.scopes()).isEqualTo(Scopes.all()).contains("android.read", "android.interact");
        assertThat(grant.android())
                .as("the full grant's android.* scopes reach every device and package")
                .isEqualTo(dev.lomicontrol.pairing.AndroidGrant.EVERYTHING);
        assertThat(ok("pairing list")).doesNotContain(pending.request().id());
    }

    @Test
    void approvingWithProjectsAndScopesNarrowsTheGrantByNameOrId() throws Exception {
        Project project = projects.add(
                Files.createDirectories(temp.resolve("narrow")).toRealPath(),
                Optional.of("narrow-" + System.nanoTime()));
        Pairings.Pending pending = pairings.submit("cursor", "ef".repeat(32), 8);
        try {
            String line = "pairing approve " + pending.request().id() + " --projects " + project.name()
                    + " --scopes workspace.read,files.read";
            assertThat(ok(line)).contains("projects " + project.id(), "2 of ");
            Grant grant = ((Decision.Approved) pending.decision().get()).grant();
            assertThat(grant.allProjects()).isFalse();
            assertThat(grant.projects()).containsExactly(project.id());
            assertThat(grant.scopes()).containsExactlyInAnyOrder("workspace.read", "files.read");
        } finally {
            projects.remove(project.id());
        }
    }

    @Test
    void anUnknownProjectOrScopeKeepsTheRequestPendingAndExitsOne() {
        Pairings.Pending pending = pairings.submit("gemini", "01".repeat(32), 9);
        try {
            assertThat(fails("pairing approve " + pending.request().id() + " --projects no-such-project", 1))
                    .contains("TARGET_NOT_FOUND", "no-such-project");
            assertThat(fails("pairing approve " + pending.request().id() + " --scopes files.mutate", 1))
                    .contains("workspace.read is always required");
            assertThat(ok("pairing list")).contains(pending.request().id());
        } finally {
            pairings.withdraw(pending.request().id());
        }
    }

    @Test
    void denyingEndsTheRequestAndUnknownIdsAreRefused() throws Exception {
        Pairings.Pending pending = pairings.submit("vscode", "23".repeat(32), 10);

        assertThat(ok("pairing deny " + pending.request().id()))
                .contains("denied " + pending.request().id(), "'vscode'");
        assertThat(pending.decision().get()).isInstanceOf(Decision.Denied.class);
        assertThat(fails("pairing deny " + pending.request().id(), 1))
                .contains("TARGET_NOT_FOUND", "no pending pairing request");
    }

    @Test
    void yoloOnNeedsConfirmAndTogglingRevokesLiveSessions() {
        Session first = open("before-yolo");
        try {
            assertThat(ok("yolo status")).contains("YOLO is off");
            assertThat(fails("yolo on", 1)).contains("repeat with --confirm");
            assertThat(first.isAlive()).isTrue();

            assertThat(ok("yolo on --confirm")).contains("YOLO is now on", "revoked 1 live session");
            assertThat(first.isAlive()).isFalse();
            assertThat(yolo.isOn()).isTrue();
            Session second = open("during-yolo");
            assertThat(ok("yolo off")).contains("YOLO is now off", "revoked 1 live session");
            assertThat(second.isAlive()).isFalse();
            assertThat(ok("yolo off")).contains("already off");
        } finally {
            if (yolo.isOn()) {
                yolo.set(false);
            }
        }
    }

    @Test
    void projectAddResolvesRelativePathsAgainstTheConsolesCwdAndRemoveLeavesTheFolder() throws Exception {
        Path folder = Files.createDirectories(cwd.resolve("app"));
        Files.writeString(folder.resolve("keep.txt"), "mine");
        String name = "app-" + System.nanoTime();

        assertThat(ok("project add app --name " + name))
                .contains(
                        "added project prj-",
                        "'" + name + "'",
                        folder.toRealPath().toString());
        assertThat(ok("project list")).contains(name, folder.toRealPath().toString(), "ws-");
        assertThat(fails("project add app", 1)).contains("already added");
        assertThat(fails("project remove " + name, 1)).contains("repeat with --confirm");

        assertThat(ok("project remove " + name + " --confirm")).contains("removed project", "was not touched");
        assertThat(ok("project list")).doesNotContain(name);
        assertThat(folder.resolve("keep.txt")).hasContent("mine");
        assertThat(fails("project remove " + name + " --confirm", 1)).contains("TARGET_NOT_FOUND");
    }

    @Test
    void sessionListShowsLiveSessionsAndRevokeNeedsConfirm() {
        Session session = open("claude-code session");
        AtomicReference<String> id = new AtomicReference<>(session.id().value());

        assertThat(ok("session list"))
                .contains(
                        id.get(),
                        "claude-code session",
                        "4711",
                        "all",
                        String.valueOf(Scopes.all().size()));
        assertThat(fails("session revoke " + id.get(), 1)).contains("repeat with --confirm");
        assertThat(session.isAlive()).isTrue();
        assertThat(ok("session revoke " + id.get() + " --confirm")).contains("revoked session " + id.get());
        assertThat(session.isAlive()).isFalse();
        assertThat(ok("session list")).doesNotContain(id.get());
        assertThat(fails("session revoke " + id.get() + " --confirm", 1)).contains("TARGET_NOT_FOUND");
        assertThat(fails("session revoke not-hex --confirm", 1)).contains("sessionId");
    }

    @Test
    void decisionsAreListedWithTheirPlanAndDeliveredOnce() {
        assertThat(ok("decision list")).contains("no operations are awaiting");
        OperationId approveMe = OperationId.random(new SecureRandom());
        OperationId rejectMe = OperationId.random(new SecureRandom());
        AtomicReference<Boolean> approved = new AtomicReference<>();
        AtomicReference<Boolean> rejected = new AtomicReference<>();
        decisions.post(
                new PendingDecision(
                        approveMe, "lomi_files_mutate", "write a.txt", "{\"path\":\"a.txt\"}", clock.instant()),
                approved::set);
        decisions.post(
                new PendingDecision(rejectMe, "lomi_git_push", "push main", "{\"branch\":\"main\"}", clock.instant()),
                rejected::set);

        assertThat(ok("decision list"))
                .contains(
                        approveMe.value(),
                        "lomi_files_mutate",
                        "write a.txt",
                        "plan: {\"path\":\"a.txt\"}",
                        rejectMe.value());
        assertThat(ok("decision approve " + approveMe)).contains("approved " + approveMe);
        assertThat(ok("decision reject " + rejectMe)).contains("rejected " + rejectMe);
        assertThat(approved.get()).isTrue();
        assertThat(rejected.get()).isFalse();
        assertThat(fails("decision approve " + approveMe, 1)).contains("TARGET_NOT_FOUND");
    }

    @Test
    void agentControlledTextReachesTheAdminsTerminalWithEveryControlCharacterEscaped() {
        OperationId disguised = OperationId.random(new SecureRandom());
        String fileName = "zz\r\u001b[2K  git stage README.md\u001b[8m";
        String subject = "fix\u001b]52;c;cm0gLXJmIH4=\u0007 typo\u009b1A\u202e";
        decisions.post(
                new PendingDecision(
                        disguised,
                        "lomi_git_mutate",
                        "git DISCARD important.c, " + fileName + " commit \"" + subject + "\"",
                        "{\"paths\":[\"" + fileName + "\"]}",
                        clock.instant()),
                approved -> {});

        String listed = ok("decision list");

        assertThat(listed.chars()
                        .filter(c -> (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f) || c == 0x202e))
                .as("no raw ESC, CR, BEL, CSI or bidi override reaches the terminal")
                .isEmpty();
        assertThat(listed)
                .contains(
                        "important.c, zz\\r\\u001b[2K  git stage README.md\\u001b[8m",
                        "fix\\u001b]52;c;",
                        "\\u0007 typo\\u009b1A\\u202e");
        assertThat(run("decision approve " + disguised + "\u001b[2K").stderr()).doesNotContain("\u001b");
        decisions.decide(disguised, false);
    }

    @Test
    void usageErrorsExitTwoWithAMessageNamingTheProblem() {
        assertThat(fails("frobnicate", 2)).contains("unknown command 'frobnicate'");
        assertThat(fails("pairing", 2)).contains("'pairing' needs one of: approve, deny, list");
        assertThat(fails("pairing approve", 2)).contains("missing <id>", "--all --confirm");
        assertThat(fails("pairing deny a b", 2)).contains("unexpected: b");
        assertThat(fails("project list --verbose", 2)).contains("unknown option --verbose");
        assertThat(fails("project add /tmp --name", 2)).contains("--name needs a value");
        assertThat(fails("yolo on --confirm=maybe", 2)).contains("is a flag");
        assertThat(fails("ledger reconcile " + "0".repeat(40) + " --note x", 2)).contains("needs --resolution");
        assertThat(fails("ledger operations --limit many", 2)).contains("'many' is not a valid");
        assertThat(fails("status 'unterminated", 2)).contains("unterminated");
    }

    @Test
    void completionOffersCommandWordsOptionsAndLiveIds() {
        Pairings.Pending pending = pairings.submit("completion", "45".repeat(32), 11);
        try {
            assertThat(executor.complete("pai")).containsExactly("pairing");
            assertThat(executor.complete("pairing ")).containsExactly("approve", "deny", "list");
            assertThat(executor.complete("pairing approve "))
                    .contains(pending.request().id());
            assertThat(executor.complete("pairing approve x --"))
                    .containsExactly(
                            "--all", "--android-devices", "--android-packages", "--confirm", "--projects", "--scopes");
            assertThat(executor.complete("pairing approve x --scopes workspace.read,files.r"))
                    .contains("workspace.read,files.read");
            assertThat(executor.complete("ledger operations --state outcome")).containsExactly("outcome_unknown");
            assertThat(executor.complete("client register c"))
                    .containsExactly("claude-code", "claude-desktop", "cursor", "codex", "cline");
            assertThat(executor.complete("client register codex --scope ")).containsExactly("user", "project");
            assertThat(executor.complete("client register codex --toolsets git,fi"))
                    .containsExactly("git,files");
            assertThat(executor.complete("help led")).containsExactly("ledger");
        } finally {
            pairings.withdraw(pending.request().id());
        }
    }

    private Session open(String label) {
        PairingRequest request = new PairingRequest(
                "pr-" + HexFormat.of().toHexDigits(System.nanoTime()),
                label,
                "99".repeat(32),
                4711,
                clock.instant(),
                clock.instant().plus(Duration.ofMinutes(2)));
        return sessions.open(request, new Grant(true, Set.of(), Scopes.all()), () -> {});
    }
}
