package dev.lomicontrol.terminal;

import dev.lomicontrol.terminal.screen.Screen;
import java.io.IOException;
import java.util.function.IntConsumer;
import java.util.function.ObjIntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread per terminal that reads the PTY. It blocks in the read (an idle terminal costs
 * no CPU), hands every chunk to the terminal's store and to the screen emulator (whose replies to
 * terminal queries go back to the PTY), and reports the shell's exit once the output is drained.
 */
final class PtyReader implements Runnable {

    private static final int READ_BUFFER = 16 * 1024;
    private static final Logger log = LoggerFactory.getLogger(PtyReader.class);

    private final String terminalId;
    private final PtyChannel channel;
    private final Screen screen;
    private final ObjIntConsumer<byte[]> received;
    private final IntConsumer ended;
    private final Thread thread;
    private boolean screenBroken;

    /**
     * @param received gets every chunk in order ({@code buffer} is reused afterwards)
     * @param ended gets the shell's exit code once, after the output is drained
     */
    PtyReader(
            String terminalId, PtyChannel channel, Screen screen, ObjIntConsumer<byte[]> received, IntConsumer ended) {
        this.terminalId = terminalId;
        this.channel = channel;
        this.screen = screen;
        this.received = received;
        this.ended = ended;
        this.thread = new Thread(this, "lomi-terminal-" + terminalId.substring(0, 8));
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    Thread thread() {
        return thread;
    }

    @Override
    public void run() {
        byte[] buffer = new byte[READ_BUFFER];
        try {
            for (int n = channel.read(buffer); n > 0; n = channel.read(buffer)) {
                // the screen first: whoever the store wakes (a settled run) must see these bytes on it
                feedScreen(buffer, n);
                received.accept(buffer, n);
            }
        } catch (IOException e) {
            // EIO once the last slave descriptor closed: the shell is gone
        } catch (RuntimeException e) {
            log.error("terminal {}: the reader failed; ending the shell", terminalId, e);
            channel.forceKill();
        }
        int code;
        try {
            code = channel.awaitExitCode();
        } catch (InterruptedException e) {
            code = -1;
        }
        try {
            ended.accept(code);
        } finally {
            channel.close();
        }
    }

    /** A failing emulator must not stop the reader: the screen then stops updating, the rings do not. */
    private void feedScreen(byte[] buffer, int n) {
        if (screenBroken) {
            return;
        }
        try {
            byte[] reply = screen.feed(buffer, 0, n);
            if (reply.length > 0) {
                channel.reply(reply);
            }
        } catch (RuntimeException e) {
            screenBroken = true;
            log.error("terminal {}: the screen emulator failed; the screen stops updating", terminalId, e);
        }
    }
}
