package dev.lomicontrol.terminal.tools;

import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.terminal.InputAck;
import dev.lomicontrol.terminal.api.TerminalResults;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.tools.Decimal;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * lomi_terminal_input: ordered input without a receipt, typed text or one key; the same sequence
 * and payload confirm the earlier send instead of repeating it.
 */
final class InputCalls {

    private final TerminalChecks checks;

    InputCalls(TerminalChecks checks) {
        this.checks = checks;
    }

    TerminalResults.InputAcknowledged input(Session session, TerminalSpecs.Input in) {
        TerminalChecks.Bound bound = checks.bind(session, in.workspaceId(), in.panelId(), in.terminalSessionId());
        String leaseId = in.leaseId().value();
        byte[] payload = payload(in.input());
        bound.requireInput(session, leaseId);
        InputAck ack = bound.terminal().input(leaseId, in.inputSequence().asLong(), payload);
        return new TerminalResults.InputAcknowledged(
                in.workspaceId(),
                in.panelId(),
                in.terminalSessionId(),
                Decimal.of(ack.inputSequence()),
                TerminalResults.InputState.valueOf(ack.state().toUpperCase(Locale.ROOT)),
                ack.repeated(),
                Decimal.of(ack.nextInputSequence()));
    }

    /** The bytes a payload types: the text as UTF-8, or the key's control byte. */
    private static byte[] payload(TerminalSpecs.Payload input) {
        if (input instanceof TerminalSpecs.Text text) {
            return text.text().getBytes(StandardCharsets.UTF_8);
        }
        switch (((TerminalSpecs.Press) input).key()) {
            case ENTER:
                return new byte[] {'\r'};
            case TAB:
                return new byte[] {'\t'};
            case ESCAPE:
                return new byte[] {0x1b};
            case BACKSPACE:
                return new byte[] {0x7f};
            case CTRL_C:
                return new byte[] {0x03};
            default:
                return new byte[] {0x04};
        }
    }
}
