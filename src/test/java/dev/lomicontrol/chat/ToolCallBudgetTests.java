package dev.lomicontrol.chat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Chat AI's per-request limits at their exact edges (no tool of this catalog answers 8 MiB, so the result limits are proven here). */
class ToolCallBudgetTests {

    @Test
    void anEightMiBResultPassesAndOneByteMoreIsRefused() {
        ToolCallBudget budget = new ToolCallBudget();
        assertThat(budget.admitResult(8L * 1024 * 1024)).isEmpty();
        assertThat(budget.admitResult(8L * 1024 * 1024 + 1))
                .hasValueSatisfying(
                        why -> assertThat(why).startsWith("PAYLOAD_TOO_LARGE").contains("8 MiB"));
    }

    @Test
    void resultsStopAtSixteenMiBInTotal() {
        ToolCallBudget budget = new ToolCallBudget();
        assertThat(budget.admitResult(8L * 1024 * 1024)).isEmpty();
        assertThat(budget.admitResult(8L * 1024 * 1024)).isEmpty();
        assertThat(budget.admitResult(1))
                .hasValueSatisfying(why -> assertThat(why).contains("16 MiB"));
    }

    @Test
    void callsStopAt128ArgumentsAt64KiBAndAnIdIsUsedOnce() {
        ToolCallBudget budget = new ToolCallBudget();
        assertThat(budget.admitCall("big", 64 * 1024 + 1))
                .hasValueSatisfying(why -> assertThat(why).contains("64 KiB"));
        assertThat(budget.admitCall("edge", 64 * 1024)).isEmpty();
        assertThat(budget.admitCall("edge", 2))
                .hasValueSatisfying(why -> assertThat(why).contains("already used"));
        for (int i = 2; i <= 128; i++) {
            assertThat(budget.admitCall("c" + i, 2)).as("call " + i).isEmpty();
        }
        assertThat(budget.admitCall("c129", 2))
                .hasValueSatisfying(why -> assertThat(why).contains("at most 128"));
        assertThat(budget.calls()).isEqualTo(128);
    }
}
