package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.SequenceReceipts;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Ordered input to devices, never sent twice: one {@link SequenceReceipts} book of {@value #RETAINED}
 * receipts (in RAM, as the reference) per device, generation and lease, so a new boot or a new lease
 * starts again at inputSequence 1. A send checks the book, consumes the number, then runs the event's
 * commands ({@link AndroidInput}) in order, all under the book's lock so a device sees its events in
 * sequence order. The same number with the same event answers the stored receipt and sends nothing;
 * the failures are {@link SequenceReceipts#check}'s. An event refused by {@link AndroidInput} consumes
 * no number. Thread-safe.
 */
public final class DeviceInputs {

    static final int RETAINED = 128;
    static final int BOOKS = 64;

    /** The answer to one input: its receipt, and whether this call sent it or repeated an earlier send. */
    public record InputReceipt(long inputSequence, String state, boolean repeated, long nextInputSequence) {}

    private record Channel(String serial, String generation, String leaseId) {}

    private final Supplier<AdbBridge> bridges;
    private final Map<Channel, SequenceReceipts> books = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Channel, SequenceReceipts> eldest) {
            return size() > BOOKS;
        }
    };

    public DeviceInputs(AdbBridge bridge) {
        this(() -> bridge);
    }

    /** Input through the bridge {@code bridges} gives at each send (one built per call keeps the receipts here). */
    public DeviceInputs(Supplier<AdbBridge> bridges) {
        this.bridges = bridges;
    }

    /**
     * Sends {@code event} as {@code inputSequence} to {@code serial} under {@code generation} and
     * {@code leaseId}, all of its commands within {@code deadline}. A command the device fails (a non-zero exit) or a
     * transport failure leaves the receipt {@code outcome_unknown} and throws OUTCOME_UNKNOWN: a retry
     * of the same number then answers that receipt and sends nothing.
     */
    public InputReceipt send(
            String serial, String generation, String leaseId, long inputSequence, InputEvent event, Duration deadline) {
        List<List<String>> commands = AndroidInput.commands(event);
        byte[] digest = SequenceReceipts.digest(event.payload());
        SequenceReceipts book = book(new Channel(serial, generation, leaseId));
        synchronized (book) {
            SequenceReceipts.Receipt stored = book.check(inputSequence, digest);
            if (stored != null) {
                return new InputReceipt(stored.sequence(), stored.state(), true, stored.next());
            }
            long sequence = book.accept(digest);
            long end = System.nanoTime() + deadline.toNanos();
            try {
                for (List<String> argv : commands) {
                    run(serial, argv, Duration.ofNanos(Math.max(1, end - System.nanoTime())));
                }
            } catch (LomiException e) {
                book.outcomeUnknown(sequence);
                throw new LomiException(
                        ErrorCode.OUTCOME_UNKNOWN,
                        "inputSequence " + sequence + " may or may not have reached " + serial + ": " + e.getMessage()
                                + "; resending it answers this receipt and sends nothing",
                        e);
            }
            return new InputReceipt(sequence, SequenceReceipts.DISPATCHED, false, book.next());
        }
    }

    /** Forgets every book of {@code serial} (the device went away or was stopped). */
    public void forget(String serial) {
        synchronized (books) {
            books.keySet().removeIf(channel -> channel.serial().equals(serial));
        }
    }

    private SequenceReceipts book(Channel channel) {
        synchronized (books) {
            return books.computeIfAbsent(channel, c -> new SequenceReceipts(RETAINED));
        }
    }

    private void run(String serial, List<String> argv, Duration deadline) {
        ShellResult result = bridges.get().shell(serial, argv, deadline, 4096);
        if (result.exitCode() != 0) {
            String said = (result.stderrText() + result.stdoutText()).strip();
            throw new LomiException(
                    ErrorCode.OUTCOME_UNKNOWN,
                    String.join(" ", argv.subList(0, Math.min(2, argv.size()))) + " exited with " + result.exitCode()
                            + (said.isEmpty() ? "" : " (" + said + ")"));
        }
    }
}
