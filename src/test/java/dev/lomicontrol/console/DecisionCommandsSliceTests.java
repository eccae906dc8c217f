package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.decisions.PendingDecision;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Slice test of the decision group ({@code decision list|approve|reject}): no broker runs. */
class DecisionCommandsSliceTests extends ConsoleSliceSupport {

    @Autowired
    DecisionBoard decisions;

    @Test
    void theGroupIsRegisteredWithHelpForEachCommand() {
        assertGroupHelp("Decisions", "decision list", "decision approve", "decision reject");
    }

    @Test
    void aDecisionIsDeliveredOnceAndAnUnknownOneIsRefused() {
        assertThat(ok("decision list")).contains("no operations are awaiting");
        OperationId id = OperationId.random(new SecureRandom());
        AtomicReference<Boolean> approved = new AtomicReference<>();
        decisions.post(
                new PendingDecision(id, "lomi_files_mutate", "write a.txt", "{\"path\":\"a.txt\"}", clock.instant()),
                approved::set);
        assertThat(ok("decision list")).contains(id.value(), "lomi_files_mutate", "write a.txt");
        assertThat(ok("decision list --json")).startsWith("{").contains(id.value());
        assertThat(ok("decision reject " + id)).contains("rejected " + id);
        assertThat(approved.get()).isFalse();
        assertRefused("decision approve " + id, "TARGET_NOT_FOUND");
    }

    /**
     * N8 (security review 2026-12-06): a file name may hold LF, and a summary shows it; the agent
     * must not be able to add a line that looks like another decision. Text output shows LF as
     * {@code \n} (one summary line per decision); {@code --json} keeps the summary as it is.
     */
    @Test
    void aSummaryWithANewlineStaysOnOneLineOfDecisionList() {
        OperationId real = OperationId.random(new SecureRandom());
        OperationId forged = OperationId.random(new SecureRandom());
        String name = "a\n\n" + forged.value() + "  lomi_git_mutate  posted 00:00:00\n  git stage README.md";
        decisions.post(
                new PendingDecision(
                        real, "lomi_git_mutate", "git DISCARD the worktree changes of " + name, "{}", clock.instant()),
                approved -> {});

        String list = ok("decision list");
        assertThat(list.lines())
                .as("one line for the operation, one for its summary, one for its plan")
                .hasSize(3);
        assertThat(list.lines().filter(line -> line.startsWith(forged.value()))).isEmpty();
        assertThat(list).contains("git DISCARD the worktree changes of a\\n\\n" + forged.value() + "  lomi_git_mutate");
        assertThat(ok("decision list --json"))
                .as("JSON escapes the newline itself")
                .contains("a\\n\\n" + forged.value());
        decisions.decide(real, false);
    }

    @Test
    void argumentsAreParsedStrictly() {
        assertUsage("decision approve", "takes 1 argument");
        assertUsage("decision reject a b", "unexpected: b");
    }
}
