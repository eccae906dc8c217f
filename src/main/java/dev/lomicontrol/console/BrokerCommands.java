package dev.lomicontrol.console;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerStatus;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.pairing.YoloPolicy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.shell.core.command.Command;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.annotation.Arguments;
import org.springframework.stereotype.Component;

/** {@code status} (the broker at a glance) and {@code help [COMMAND...]}. */
@Component
class BrokerCommands implements CommandGroup {

    private final BrokerRuntime runtime;
    private final Sessions sessions;
    private final Pairings pairings;
    private final YoloPolicy yolo;
    private final Ledger ledger;
    private final Clock clock;
    private final ObjectProvider<CommandShapes> shapes;
    private final AgentConnections control;

    BrokerCommands(
            AgentConnections control,
            BrokerRuntime runtime,
            Sessions sessions,
            Pairings pairings,
            YoloPolicy yolo,
            Ledger ledger,
            Clock clock,
            ObjectProvider<CommandShapes> shapes) {
        this.control = control;
        this.runtime = runtime;
        this.sessions = sessions;
        this.pairings = pairings;
        this.yolo = yolo;
        this.ledger = ledger;
        this.clock = clock;
        this.shapes = shapes;
    }

    @org.springframework.shell.core.command.annotation.Command(
            name = "status",
            group = "Broker",
            description = "The broker at a glance",
            help =
                    "status\n  Instance, start time, data directory, control and admin sockets, discovery file, live sessions, agent connections"
                            + " against lomi.control.max-connections (a WARNING from 80 %), pending pairing requests, YOLO, ledger receipts/epochs against their caps and integrity,"
                            + " the adb found and its server's version, each Android capability with what it lacks. --json: one JSON document (without the Android lines).")
    public String status(
            @org.springframework.shell.core.command.annotation.Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        LedgerStatus ledgerStatus = ledger.maintenance().status();
        if (json) {
            return ConsoleJson.write(new ConsoleJson.Status(
                    runtime.instanceId(),
                    runtime.startedAt().toString(),
                    Duration.between(runtime.startedAt(), clock.instant()).toSeconds(),
                    runtime.dataDirectory().toString(),
                    runtime.controlSocket().map(Path::toString),
                    runtime.adminSocket().map(Path::toString),
                    runtime.discoveryFile().map(Path::toString),
                    sessions.list().size(),
                    control.open(),
                    control.max(),
                    control.refused(),
                    pairings.pending().size(),
                    yolo.isOn(),
                    ledgerStatus.receipts(),
                    ledgerStatus.receiptCap(),
                    ledgerStatus.epochs(),
                    ledgerStatus.epochCap(),
                    ledgerStatus.integrity(),
                    ledgerStatus.writerHealthy(),
                    warnings()));
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"instance", runtime.instanceId()});
        lines.add(new String[] {
            "started",
            Text.time(runtime.startedAt()) + " (up "
                    + Text.duration(Duration.between(runtime.startedAt(), clock.instant())) + ")"
        });
        lines.add(new String[] {"data dir", runtime.dataDirectory().toString()});
        lines.add(new String[] {
            "control socket", runtime.controlSocket().map(Path::toString).orElse("not listening")
        });
        lines.add(new String[] {
            "admin socket", runtime.adminSocket().map(Path::toString).orElse("off")
        });
        lines.add(new String[] {
            "discovery file", runtime.discoveryFile().map(Path::toString).orElse("not published")
        });
        lines.add(new String[] {"sessions", sessions.list().size() + " live"});
        long refused = control.refused();
        lines.add(new String[] {
            "connections",
            control.open() + " of " + control.max() + " (lomi.control.max-connections)"
                    + (refused == 0 ? "" : "; " + refused + " refused with broker_full since the start")
        });
        lines.add(
                new String[] {"pairing", pairings.pending().size() + " pending; YOLO " + (yolo.isOn() ? "on" : "off")});
        lines.add(new String[] {"ledger", LedgerStatusText.summary(ledgerStatus)});
        lines.add(new String[] {
            "integrity",
            ledgerStatus.integrity() + (ledgerStatus.writerHealthy() ? "" : "; writer STOPPED (restart the broker)")
        });
        lines.addAll(AndroidStatusLines.lines(dev.lomicontrol.tools.HostProbe.current()));
        warnings().forEach(warning -> lines.add(new String[] {"WARNING", warning}));
        return Table.pairs(lines);
    }

    /** The broker's standing warnings, and the connection warning from 80 % of the cap. */
    private List<String> warnings() {
        List<String> warnings = new ArrayList<>(runtime.warnings());
        control.warning().ifPresent(warnings::add);
        return warnings;
    }

    @org.springframework.shell.core.command.annotation.Command(
            name = "help",
            group = "Broker",
            description = "List commands, or show one command's help",
            completionProvider = "helpCompletions",
            help =
                    "help [COMMAND...]\n  Without words: every command. With a command: its usage and help; with a group word (e.g. 'ledger'):"
                            + " its commands. 'COMMAND --help' works too. 'exit' or Ctrl-D leaves an interactive console (in the broker's own terminal"
                            + " that stops the broker).")
    public String help(@Arguments List<String> words, CommandContext context) {
        String name = String.join(" ", words == null ? List.of() : words);
        Command exact = name.isEmpty() ? null : context.commandRegistry().getCommandByName(name);
        if (exact != null) {
            String synopsis = shapes.getObject()
                    .get(exact.getName())
                    .map(CommandShape::synopsis)
                    .orElse(exact.getName());
            return exact.getHelp().isBlank() ? synopsis + "\n  " + exact.getDescription() : exact.getHelp();
        }
        Map<String, List<Command>> groups = new TreeMap<>();
        context.commandRegistry().getCommands().stream()
                .filter(c -> !c.isHidden())
                .filter(c -> name.isEmpty() || c.getName().startsWith(name + " "))
                .sorted(Comparator.comparing(Command::getName))
                .forEach(c -> groups.computeIfAbsent(
                                c.getGroup().isEmpty() ? "Other" : c.getGroup(), g -> new ArrayList<>())
                        .add(c));
        if (groups.isEmpty()) {
            throw new UsageException("no command '" + name + "'; type 'help' for the list");
        }
        StringBuilder out = new StringBuilder();
        groups.forEach((group, commands) -> {
            Table table = new Table(group.toUpperCase(java.util.Locale.ROOT), "");
            commands.forEach(c -> table.row("  " + c.getName(), c.getDescription()));
            out.append(table).append("\n\n");
        });
        return out.append("'help COMMAND' or 'COMMAND --help' for details; 'exit' leaves an interactive console.")
                .toString();
    }
}
