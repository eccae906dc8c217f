package dev.lomicontrol.console;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import java.util.List;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/** {@code session list | revoke}. */
@Component
class SessionCommands implements CommandGroup {

    private final Sessions sessions;
    private final AgentConnections control;

    SessionCommands(Sessions sessions, AgentConnections control) {
        this.sessions = sessions;
        this.control = control;
    }

    @Command(
            name = "session list",
            group = "Sessions",
            description = "List live client sessions",
            help =
                    "session list\n  Who holds the agent connections: a first line with the connections in use against lomi.control.max-connections"
                            + " (helpers still pairing or handshaking hold one too), then the live sessions of this broker run: id, client label,"
                            + " peer pid, granted projects, number of scopes, connected since. 'session revoke' frees a connection. --json: one JSON document (with the scopes and the Android devices and packages themselves).")
    public String list(
            @org.springframework.shell.core.command.annotation.Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        List<Session> live = sessions.list();
        if (json) {
            return ConsoleJson.write(new ConsoleJson.Sessions(
                    control.open(),
                    control.max(),
                    live.stream()
                            .map(s -> new ConsoleJson.Session(
                                    s.id().value(),
                                    s.clientLabel(),
                                    s.peerPid(),
                                    s.grant().projects().stream()
                                            .map(dev.lomicontrol.core.ProjectId::value)
                                            .sorted()
                                            .toList(),
                                    s.grant().scopes().stream().sorted().toList(),
                                    s.grant().android().allDevices()
                                            ? List.of("*")
                                            : s.grant().android().devices().stream()
                                                    .sorted()
                                                    .toList(),
                                    s.grant().android().allPackages()
                                            ? List.of("*")
                                            : s.grant().android().packages().stream()
                                                    .sorted()
                                                    .toList(),
                                    s.connectedAt().toString()))
                            .toList()));
        }
        int open = control.open();
        String header = open + " of " + control.max() + " agent connections in use ("
                + live.size() + " live session(s), " + Math.max(0, open - live.size())
                + " pairing or handshaking); 'session revoke <id> --confirm' frees one\n";
        if (live.isEmpty()) {
            return header + "no live sessions";
        }
        Table table = new Table("ID", "CLIENT", "PID", "PROJECTS", "SCOPES", "CONNECTED");
        live.forEach(s -> table.row(
                s.id(),
                s.clientLabel(),
                s.peerPid(),
                projects(s.grant()),
                s.grant().scopes().size(),
                Text.time(s.connectedAt())));
        return header + table;
    }

    @Command(
            name = "session revoke",
            group = "Sessions",
            description = "End a session's authority now (needs --confirm)",
            completionProvider = "sessionCompletions",
            help =
                    "session revoke <id> --confirm\n  Ends the session's authority at once and closes its connection; its unfinished operations"
                            + " are settled (dispatched ones become outcome_unknown). The client must pair again. Refused without --confirm.")
    public String revoke(
            @Argument(index = 0, description = "id") String id,
            @Option(longName = "confirm", description = "really revoke", defaultValue = "false") boolean confirm) {
        SessionId session = new SessionId(Text.required(id, "id"));
        if (sessions.get(session).isEmpty()) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no live session " + id);
        }
        Text.requireConfirm(confirm, "revoking ends session " + id + " and settles its unfinished work");
        if (!sessions.revoke(session, "revoked by the admin")) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "session " + id + " already ended");
        }
        return "revoked session " + id;
    }

    private static String projects(Grant grant) {
        return grant.allProjects()
                ? "all"
                : String.join(
                        ",",
                        grant.projects().stream().map(ProjectId::value).sorted().toList());
    }
}
