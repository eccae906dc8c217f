package dev.lomicontrol.ipc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.RandomJson;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The helper writes its call frames without a mapper: the same bytes the wire's mapper writes, and the broker reads them back. */
class CallRequestFrameTests {

    @Test
    void aCallFrameWrittenWithoutAMapperIsTheMappersFrameByteForByte() {
        Random random = new Random(20261204L);
        for (int i = 0; i < 2_000; i++) {
            CallRequest request = new CallRequest(
                    IpcJson.IPC_VERSION, "r" + random.nextLong(), "lomi_files_read", RandomJson.object(random));

            assertThat(request.toFrame()).isEqualTo(IpcJson.write(request));
            assertThat(IpcJson.read(request.toFrame(), CallRequest.class)).isEqualTo(request);
        }
    }
}
