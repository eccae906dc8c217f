package dev.lomicontrol.mcp;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import tools.jackson.databind.JsonNode;

/**
 * The only writer of the helper's stdout, and the only production class outside the console that
 * touches {@code System.out}. Each {@link #write} puts one whole JSON-RPC message plus {@code \n}
 * on the stream and flushes, under one lock, so concurrent responses never interleave.
 */
final class StdoutWriter {

    private final OutputStream out;
    private volatile boolean broken;

    StdoutWriter(OutputStream out) {
        this.out = out;
    }

    /**
     * Takes the process's stdout for protocol frames and points {@code System.out} at stderr, so a
     * stray {@code println} in any library lands in the diagnostics and can never corrupt the stream.
     */
    static StdoutWriter claimProcessStdout() {
        PrintStream original = System.out;
        System.setOut(System.err);
        return new StdoutWriter(original);
    }

    /** Writes one message as one line; after a failed write (the client is gone) further writes are dropped. */
    void write(JsonNode message) {
        byte[] line = McpJson.terminatedLine(message);
        synchronized (this) {
            writeLine(line);
        }
    }

    /** Writes a line that ends in {@code \n} and flushes it. */
    private void writeLine(byte[] line) {
        if (broken) {
            return;
        }
        try {
            out.write(line);
            out.flush();
            if (out instanceof PrintStream && ((PrintStream) out).checkError()) {
                throw new IOException("stdout is closed");
            }
        } catch (IOException e) {
            broken = true;
            Diagnostics.warn("cannot write to stdout (" + e.getMessage() + "); dropping further responses");
        }
    }

    boolean isBroken() {
        return broken;
    }
}
