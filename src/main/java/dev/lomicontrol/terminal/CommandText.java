package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Validation and framing of what {@link Terminal#run} and {@link Terminal#input} write. */
final class CommandText {

    private static final byte[] PASTE_START = {0x1B, '[', '2', '0', '0', '~'};
    private static final byte[] PASTE_END = {0x1B, '[', '2', '0', '1', '~'};

    private CommandText() {}

    /**
     * The command's UTF-8 bytes.
     *
     * @throws LomiException INVALID_ARGUMENT unless it is non-blank, one line without control
     *     characters, valid Unicode, and at most 16 KiB in UTF-8
     */
    static byte[] validate(String command) {
        if (command == null || command.isBlank()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the command must not be empty");
        }
        for (int i = 0; i < command.length(); i++) {
            if (Character.isISOControl(command.charAt(i))) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        String.format(
                                "the command must be one line without control characters (found U+%04X at %d)",
                                (int) command.charAt(i), i));
            }
        }
        byte[] bytes;
        try {
            ByteBuffer encoded = StandardCharsets.UTF_8
                    .newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(command));
            bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
        } catch (CharacterCodingException e) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "the command is not valid Unicode (unpaired surrogate)");
        }
        if (bytes.length > Terminal.MAX_COMMAND_BYTES) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "the command is " + bytes.length + " bytes in UTF-8; at most " + Terminal.MAX_COMMAND_BYTES
                            + " are allowed");
        }
        return bytes;
    }

    /** The bytes to write: the line (inside paste markers when {@code bracketed}) and a CR. */
    static byte[] frame(byte[] line, boolean bracketed) {
        int markers = bracketed ? PASTE_START.length + PASTE_END.length : 0;
        ByteBuffer framed = ByteBuffer.allocate(line.length + markers + 1);
        if (bracketed) {
            framed.put(PASTE_START).put(line).put(PASTE_END);
        } else {
            framed.put(line);
        }
        framed.put((byte) '\r');
        return framed.array();
    }

    /** @throws LomiException INVALID_ARGUMENT unless 1..64 KiB without NUL */
    static void validateInput(byte[] payload) {
        if (payload == null || payload.length == 0 || payload.length > Terminal.MAX_INPUT_BYTES) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "input must be 1.." + Terminal.MAX_INPUT_BYTES + " bytes");
        }
        for (byte b : payload) {
            if (b == 0) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "input must not contain NUL");
            }
        }
    }
}
