package dev.lomicontrol.console;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.Visible;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.decisions.PendingDecision;
import java.util.List;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.stereotype.Component;

/** {@code decision list | approve | reject}: operations in awaiting_user with their exact plan. */
@Component
class DecisionCommands implements CommandGroup {

    private final DecisionBoard board;

    DecisionCommands(DecisionBoard board) {
        this.board = board;
    }

    @Command(
            name = "decision list",
            group = "Decisions",
            description = "List operations awaiting the admin's decision",
            help =
                    "decision list\n  Each operation in awaiting_user: id, tool, summary (one line: a newline in it shows as \\n), when it was posted and the exact plan (verbatim JSON);\n"
                            + "  first, requests for your attention that need no decision (lomi_settings_open). --json: one JSON document.")
    public String list(
            @org.springframework.shell.core.command.annotation.Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        List<PendingDecision> pending = board.list();
        if (json) {
            return ConsoleJson.write(new ConsoleJson.Decisions(
                    List.copyOf(board.notices()),
                    pending.stream()
                            .map(d -> new ConsoleJson.Decision(
                                    d.operationId().value(),
                                    d.tool(),
                                    d.summary(),
                                    d.postedAt().toString(),
                                    ConsoleJson.plan(d.plan())))
                            .toList()));
        }
        StringBuilder out = new StringBuilder();
        for (String notice : board.notices()) {
            out.append("attention: ").append(Visible.line(notice)).append('\n');
        }
        if (pending.isEmpty()) {
            return out.append("no operations are awaiting a decision").toString();
        }
        for (PendingDecision d : pending) {
            out.append(d.operationId())
                    .append("  ")
                    .append(d.tool())
                    .append("  posted ")
                    .append(Text.time(d.postedAt()))
                    .append('\n')
                    .append("  ")
                    .append(Visible.line(d.summary()))
                    .append('\n')
                    .append("  plan: ")
                    .append(d.plan())
                    .append('\n');
        }
        return out.toString().stripTrailing();
    }

    @Command(
            name = "decision approve",
            group = "Decisions",
            description = "Approve an awaiting operation's plan",
            completionProvider = "decisionCompletions",
            help = "decision approve <operationId>\n  Lets the operation run exactly as planned (see decision list).")
    public String approve(@Argument(index = 0, description = "operationId") String id) {
        PendingDecision decision = board.decide(new OperationId(Text.required(id, "operationId")), true);
        return "approved " + decision.operationId() + " (" + decision.tool() + ")";
    }

    @Command(
            name = "decision reject",
            group = "Decisions",
            description = "Reject an awaiting operation's plan",
            completionProvider = "decisionCompletions",
            help =
                    "decision reject <operationId>\n  The operation does not run; the agent is told the admin rejected it.")
    public String reject(@Argument(index = 0, description = "operationId") String id) {
        PendingDecision decision = board.decide(new OperationId(Text.required(id, "operationId")), false);
        return "rejected " + decision.operationId() + " (" + decision.tool() + ")";
    }
}
