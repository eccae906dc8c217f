package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The helper checks each tool's first answers against the output schema, then one in {@link ToolCalls#CHECK_EVERY}. */
class ResultCheckSamplingTests {

    @Test
    void theFirstAnswersOfEachToolAreCheckedThenOneInSixtyFour() {
        assertThat(LongStream.range(0, 8)).allMatch(ToolCalls::shouldCheck);
        assertThat(LongStream.range(8, 64)).noneMatch(ToolCalls::shouldCheck);
        assertThat(LongStream.range(0, 6400).filter(ToolCalls::shouldCheck).count())
                .isEqualTo(8 + 99);
    }
}
