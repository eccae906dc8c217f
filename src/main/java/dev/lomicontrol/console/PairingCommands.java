package dev.lomicontrol.console;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.YoloPolicy;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/** {@code pairing list | approve | deny} and {@code yolo status | on | off}. */
@Component
class PairingCommands implements CommandGroup {

    private final Pairings pairings;
    private final Projects projects;
    private final YoloPolicy yolo;
    private final Clock clock;
    private final BrokerRuntime runtime;

    PairingCommands(Pairings pairings, Projects projects, YoloPolicy yolo, Clock clock, BrokerRuntime runtime) {
        this.runtime = runtime;
        this.pairings = pairings;
        this.projects = projects;
        this.yolo = yolo;
        this.clock = clock;
    }

    @Command(
            name = "pairing list",
            group = "Pairing",
            description = "List pending pairing requests",
            help =
                    "pairing list\n  Pending requests (at most " + Pairings.MAX_PENDING
                            + ", each expiring after 120 s): id, client label,"
                            + " SHA-256 of the client's session certificate, peer pid, expiry. Compare the fingerprint and pid with the client before approving. --json: one JSON document.")
    public String list(
            @org.springframework.shell.core.command.annotation.Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        if (json) {
            return ConsoleJson.write(new ConsoleJson.Pairings(
                    yolo.isOn(),
                    runtime.warnings(),
                    pairings.pending().stream()
                            .map(r -> new ConsoleJson.PairingRequest(
                                    r.id(),
                                    r.clientLabel(),
                                    r.certificateSha256(),
                                    r.peerPid(),
                                    r.expiresAt().toString(),
                                    Math.max(
                                            0,
                                            Duration.between(clock.instant(), r.expiresAt())
                                                    .toSeconds())))
                            .toList()));
        }
        return warnings() + pendingRequests();
    }

    private String warnings() {
        StringBuilder out = new StringBuilder();
        runtime.warnings()
                .forEach(warning -> out.append("WARNING: ").append(warning).append('\n'));
        return out.toString();
    }

    private String pendingRequests() {
        List<PairingRequest> pending = pairings.pending();
        if (pending.isEmpty()) {
            return "no pending pairing requests"
                    + (yolo.isOn() ? " (YOLO is on: requests are approved automatically)" : "");
        }
        Table table = new Table("ID", "CLIENT", "CERTIFICATE SHA-256", "PID", "EXPIRES");
        pending.forEach(r -> table.row(
                r.id(),
                r.clientLabel(),
                r.certificateSha256(),
                r.peerPid(),
                Text.time(r.expiresAt()) + " (in " + Text.duration(Duration.between(clock.instant(), r.expiresAt()))
                        + ")"));
        return table.toString();
    }

    @Command(
            name = "pairing approve",
            group = "Pairing",
            description = "Approve a pending pairing request",
            completionProvider = "pairingCompletions",
            help =
                    "pairing approve <id> [--projects a,b] [--scopes x,y]\n  Without flags the session may use the projects that exist now (not"
                            + " projects added later) with the full scope set (except " + Scopes.TERMINAL_UNSANDBOXED
                            + ", which only --scopes grants). --projects narrows it to the named projects (name or id); --scopes to the listed scopes"
                            + " (workspace.read is always required; dependencies are checked).")
    public String approve(
            @Argument(index = 0, description = "id") String id,
            @Option(longName = "projects", description = "comma-separated project names or ids") String projectList,
            @Option(longName = "scopes", description = "comma-separated scopes") String scopeList) {
        Optional<List<String>> named =
                projectList.isEmpty() ? Optional.empty() : Optional.of(Text.list(projectList, "projects"));
        Optional<List<String>> scopes =
                scopeList.isEmpty() ? Optional.empty() : Optional.of(Text.list(scopeList, "scopes"));
        Grant grant = pairings.approve(
                Text.required(id, "id"),
                named,
                scopes,
                name -> projects.find(name).map(Project::id),
                () -> projects.list().stream().map(Project::id).collect(java.util.stream.Collectors.toSet()));
        String where = grant.projects().isEmpty()
                ? "no project yet (it may ask to open one)"
                : (named.isEmpty()
                                ? "the " + grant.projects().size() + " current project(s), not later ones: "
                                : "projects ")
                        + String.join(
                                ", ",
                                grant.projects().stream()
                                        .map(ProjectId::value)
                                        .sorted()
                                        .toList());
        return "approved " + id + ": " + where + "; " + grant.scopes().size() + " of "
                + Scopes.known().size() + " scopes";
    }

    @Command(
            name = "pairing deny",
            group = "Pairing",
            description = "Deny a pending pairing request",
            completionProvider = "pairingCompletions",
            help = "pairing deny <id>\n  Refuses the request; the client is told it was denied and must ask again.")
    public String deny(@Argument(index = 0, description = "id") String id) {
        PairingRequest request = pairings.deny(Text.required(id, "id"));
        return "denied " + request.id() + " ('" + request.clientLabel() + "', pid " + request.peerPid() + ")";
    }

    @Command(
            name = "yolo status",
            group = "Pairing",
            description = "Show the YOLO policy",
            help =
                    "yolo status\n  Whether pairing requests are approved automatically (YOLO on) or wait for the admin (off, the default).")
    public String status() {
        return yolo.isOn()
                ? "YOLO is on: pairing requests are approved automatically with the full grant"
                : "YOLO is off: pairing requests wait for 'pairing approve'";
    }

    @Command(
            name = "yolo on",
            group = "Pairing",
            description = "Approve all pairing requests automatically (needs --confirm)",
            help =
                    "yolo on --confirm\n  Saves the policy: pending and future pairing requests are approved with every project and scope."
                            + " Revokes every live session. Refused without --confirm (there is no prompt).")
    public String on(
            @Option(longName = "confirm", description = "really turn YOLO on", defaultValue = "false")
                    boolean confirm) {
        if (yolo.isOn()) {
            return "YOLO is already on; nothing changed";
        }
        Text.requireConfirm(confirm, "YOLO approves every pairing request with full access and revokes live sessions");
        return "YOLO is now on; revoked " + yolo.set(true) + " live session(s)";
    }

    @Command(
            name = "yolo off",
            group = "Pairing",
            description = "Make pairing requests wait for the admin again",
            help =
                    "yolo off\n  Saves the policy (off) and revokes every live session, so none keeps authority granted under YOLO.")
    public String off() {
        if (!yolo.isOn()) {
            return "YOLO is already off; nothing changed";
        }
        return "YOLO is now off; revoked " + yolo.set(false) + " live session(s)";
    }
}
