package dev.lomicontrol.console;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.pairing.AndroidGrant;
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
import org.springframework.shell.core.command.annotation.Arguments;
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
                    "pairing list\n  Pending requests (at most lomi.control.max-pending-pairings, "
                            + Pairings.DEFAULT_MAX_PENDING
                            + " unless set; each expiring after 120 s): id, client label,"
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
            description = "Approve pending pairing requests (one id, several, or --all --confirm)",
            completionProvider = "pairingCompletions",
            help =
                    "pairing approve <id>... [--projects a,b] [--scopes x,y] [--android-devices s,avd] [--android-packages p,q]\n"
                            + "pairing approve --all --confirm [--projects a,b] [--scopes x,y] [--android-devices …] [--android-packages …]\n"
                            + "  Without flags the session may use the projects that exist now (not"
                            + " projects added later) with the full scope set (except " + Scopes.TERMINAL_UNSANDBOXED
                            + ", which only --scopes grants), the android.* scopes reaching every Android device and package"
                            + " unless --android-devices/--android-packages name some. --projects narrows it to the named projects (name or id); --scopes to the listed scopes"
                            + " (workspace.read is always required; dependencies are checked). --android-devices names the 1-16 adb serials or"
                            + " AVD names the android.* scopes may reach (an AVD covers the emulator it runs as; with --scopes naming android.* ones, needed unless they"
                            + " are only android.setup/android.manage), --android-packages the 1-16 app packages android.launch and"
                            + " android.logs may name. --all approves every request 'pairing list' shows"
                            + " now (compare them first; refused without --confirm); requests arriving later wait as usual.")
    public String approve(
            @Arguments List<String> ids,
            @Option(
                            longName = "all",
                            description = "approve every pending request (needs --confirm)",
                            defaultValue = "false")
                    boolean all,
            @Option(longName = "confirm", description = "really approve them all (with --all)", defaultValue = "false")
                    boolean confirm,
            @Option(longName = "projects", description = "comma-separated project names or ids") String projectList,
            @Option(longName = "scopes", description = "comma-separated scopes") String scopeList,
            @Option(longName = "android-devices", description = "comma-separated adb serials or AVD names (at most 16)")
                    String deviceList,
            @Option(longName = "android-packages", description = "comma-separated app package names (at most 16)")
                    String packageList) {
        Android android = new Android(
                deviceList.isEmpty() ? List.of() : Text.list(deviceList, "android-devices"),
                packageList.isEmpty() ? List.of() : Text.list(packageList, "android-packages"));
        List<String> named = ids == null
                ? List.of()
                : ids.stream().filter(id -> !id.isBlank()).toList();
        if (all == !named.isEmpty()) {
            throw new UsageException(
                    all
                            ? "give either request ids or --all, not both"
                            : "missing <id>: name the request(s) 'pairing list' shows, or use --all --confirm");
        }
        if (!all) {
            StringBuilder out = new StringBuilder();
            for (String id : named) {
                out.append(out.length() == 0 ? "" : "\n")
                        .append(approveOne(id.strip(), projectList, scopeList, android));
            }
            return out.toString();
        }
        List<PairingRequest> listed = pairings.pending();
        if (listed.isEmpty()) {
            return "no pending pairing requests; nothing approved";
        }
        Text.requireConfirm(
                confirm,
                "--all approves the " + listed.size() + " pending request(s) 'pairing list' shows, each with the grant"
                        + " of 'pairing approve <id>'");
        int approved = 0;
        List<String> gone = new java.util.ArrayList<>();
        String last = "";
        for (PairingRequest request : listed) {
            try {
                last = approveOne(request.id(), projectList, scopeList, android);
                approved++;
            } catch (dev.lomicontrol.core.LomiException e) {
                if (e.code() != dev.lomicontrol.core.ErrorCode.TARGET_NOT_FOUND) {
                    throw e; // a bad --projects/--scopes/--android-*: the same for every request
                }
                gone.add(request.id()); // withdrawn or expired meanwhile
            }
        }
        return "approved " + approved + " of " + listed.size() + " pending request(s)"
                + (gone.isEmpty() ? "" : "; gone meanwhile: " + String.join(", ", gone))
                + (approved == 0 ? "" : "; each: " + last.substring(last.indexOf(": ") + 2));
    }

    /** The Android devices and packages an approval names ({@code --android-devices}, {@code --android-packages}). */
    private record Android(List<String> devices, List<String> packages) {}

    private String approveOne(String id, String projectList, String scopeList, Android android) {
        Optional<List<String>> named =
                projectList.isEmpty() ? Optional.empty() : Optional.of(Text.list(projectList, "projects"));
        Optional<List<String>> scopes =
                scopeList.isEmpty() ? Optional.empty() : Optional.of(Text.list(scopeList, "scopes"));
        Grant grant = pairings.approve(
                Text.required(id, "id"),
                named,
                scopes,
                android.devices(),
                android.packages(),
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
                + Scopes.known().size() + " scopes" + androidPart(grant.android());
    }

    private static String androidPart(AndroidGrant android) {
        if (android.equals(AndroidGrant.NONE)) {
            return "";
        }
        return "; Android devices "
                + (android.allDevices()
                        ? "every device"
                        : String.join(", ", android.devices().stream().sorted().toList()))
                + (android.allPackages()
                        ? ", every package"
                        : android.packages().isEmpty()
                                ? ""
                                : ", packages "
                                        + String.join(
                                                ", ",
                                                android.packages().stream()
                                                        .sorted()
                                                        .toList()));
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
