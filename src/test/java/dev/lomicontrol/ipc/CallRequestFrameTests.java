package dev.lomicontrol.ipc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.testing.RandomJson;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Call frames without a mapper: the helper writes the bytes the wire's mapper writes, the broker reads them as strictly. */
class CallRequestFrameTests {

    @Test
    void aCallFrameWrittenWithoutAMapperIsTheMappersFrameByteForByte() {
        Random random = new Random(20261204L);
        for (int i = 0; i < 2_000; i++) {
            CallRequest request = new CallRequest(
                    IpcJson.IPC_VERSION, "r" + random.nextLong(), "lomi_files_read", RandomJson.object(random));

            assertThat(request.toFrame()).isEqualTo(IpcJson.write(request));
            assertThat(IpcJson.read(request.toFrame(), CallRequest.class)).isEqualTo(request);
            assertThat(CallRequest.read(request.toFrame())).isEqualTo(request);
        }
    }

    @Test
    void aResponseFrameWrittenWithoutAMapperIsTheMappersFrameByteForByte() {
        Random random = new Random(20261206L);
        for (int i = 0; i < 2_000; i++) {
            CallResponse response = new CallResponse("r" + random.nextLong(), RandomJson.value(random));

            assertThat(response.toFrame()).isEqualTo(IpcJson.write(response));
        }
    }

    /** Mutated frames (seeded): whatever the broker's token reader accepts, the strict mapper reads to the same request. */
    @Test
    void theTokenReaderAcceptsNothingTheStrictMapperRefuses() {
        Random random = new Random(20261205L);
        String mutations = " {}[]\":,\\0a1-.e\u00ff";
        int accepted = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] frame = new CallRequest(
                            IpcJson.IPC_VERSION, "r" + round, "lomi_files_read", RandomJson.object(random))
                    .toFrame();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                frame[random.nextInt(frame.length)] = (byte) mutations.charAt(random.nextInt(mutations.length()));
            }
            CallRequest read;
            try {
                read = CallRequest.read(frame);
            } catch (LomiException refused) {
                assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                continue;
            }
            accepted++;
            assertThat(IpcJson.read(frame, CallRequest.class)).isEqualTo(read);
        }
        assertThat(accepted).as("some mutations stay valid requests").isPositive();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"ipcVersion\":1,\"requestId\":\"r1\",\"tool\":\"t\"}",
                "{\"ipcVersion\":1,\"requestId\":\"r1\",\"tool\":\"t\",\"arguments\":{},\"x\":1}",
                "{\"ipcVersion\":1,\"ipcVersion\":1,\"requestId\":\"r1\",\"tool\":\"t\",\"arguments\":{}}",
                "{\"ipcVersion\":\"1\",\"requestId\":\"r1\",\"tool\":\"t\",\"arguments\":{}}",
                "{\"ipcVersion\":1.0,\"requestId\":\"r1\",\"tool\":\"t\",\"arguments\":{}}",
                "{\"ipcVersion\":1,\"requestId\":7,\"tool\":\"t\",\"arguments\":{}}",
                "{\"ipcVersion\":1,\"requestId\":\"r1\",\"tool\":null,\"arguments\":{}}",
                "{\"ipcVersion\":1,\"requestId\":\"r1\",\"tool\":\"t\",\"arguments\":{}} []",
                "[1]",
                ""
            })
    void malformedRequestsAreRefusedAsInvalidArguments(String frame) {
        Refused.asInvalidArgument(() -> CallRequest.read(Refused.bytes(frame)))
                .hasMessageStartingWith("malformed CallRequest");
    }
}
