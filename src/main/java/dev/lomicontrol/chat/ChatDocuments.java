package dev.lomicontrol.chat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Exported documents of a conversation (Markdown or JSON, deterministic for the same saved state,
 * so their SHA-256 is a stable revision) and UTF-16 pages of a text on scalar boundaries.
 */
public final class ChatDocuments {

    /** An export covers at most 512 messages. */
    public static final int MAX_MESSAGES = 512;
    /** An export is at most 4 MiB of UTF-8. */
    public static final int MAX_BYTES = 4 * 1024 * 1024;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ChatDocuments() {}

    /** One page: the text from the start, its total length in UTF-16 units, and where the next page starts (empty: none). */
    public record Page(String content, long total, Optional<Long> next) {}

    /**
     * Up to {@code max} UTF-16 units from {@code start}, never splitting a surrogate pair (a page
     * ends one unit early instead). A start past the end or inside a pair is INVALID_ARGUMENT.
     */
    public static Page page(String text, long start, int max) {
        int length = text.length();
        if (start > length) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "startUtf16 " + start + " is past the end (" + length + " UTF-16 units)");
        }
        int from = (int) start;
        if (from > 0
                && from < length
                && Character.isLowSurrogate(text.charAt(from))
                && Character.isHighSurrogate(text.charAt(from - 1))) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "startUtf16 " + start + " is inside a surrogate pair");
        }
        int to = (int) Math.min(length, (long) from + max);
        if (to < length && to > from && Character.isHighSurrogate(text.charAt(to - 1))) {
            to--;
        }
        return new Page(text.substring(from, to), length, to < length ? Optional.of((long) to) : Optional.empty());
    }

    public static String markdown(Conversation conversation, List<ChatMessage> messages) {
        requireCount(messages);
        StringBuilder out = new StringBuilder();
        out.append("# ").append(conversation.title()).append("\n\n");
        out.append("Conversation `")
                .append(conversation.id())
                .append("`, revision ")
                .append(conversation.conversationRevision())
                .append(".\n");
        for (ChatMessage message : messages) {
            out.append("\n## ").append(message.role());
            if (message.role().equals("assistant")) {
                out.append(" (")
                        .append(message.model().orElse("?"))
                        .append(" via ")
                        .append(message.connectionId().orElse("?"));
                if (!message.status().equals("complete")) {
                    out.append(", ").append(message.status());
                }
                out.append(')');
            }
            out.append("\n\n").append(message.content()).append('\n');
        }
        return requireSize(out.toString());
    }

    public static String json(Conversation conversation, List<ChatMessage> messages) {
        requireCount(messages);
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("conversationId", conversation.id());
        root.put("title", conversation.title());
        root.put("conversationRevision", conversation.conversationRevision());
        ArrayNode list = root.putArray("messages");
        for (ChatMessage message : messages) {
            ObjectNode node = list.addObject();
            node.put("messageId", message.id());
            node.put("parentMessageId", message.parentId().orElse(null));
            node.put("role", message.role());
            node.put("status", message.status());
            node.put("content", message.content());
            node.put("connectionId", message.connectionId().orElse(null));
            node.put("model", message.model().orElse(null));
        }
        return requireSize(JSON.writeValueAsString(root));
    }

    /** Lower-case hex SHA-256 of the UTF-8 bytes of {@code text}. */
    public static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void requireCount(List<ChatMessage> messages) {
        if (messages.size() > MAX_MESSAGES) {
            throw new LomiException(
                    ErrorCode.PAYLOAD_TOO_LARGE,
                    "the conversation has " + messages.size() + " messages; an export covers at most " + MAX_MESSAGES
                            + " (it is refused, not truncated)");
        }
    }

    private static String requireSize(String document) {
        int bytes = document.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new LomiException(
                    ErrorCode.PAYLOAD_TOO_LARGE,
                    "the export would be " + bytes + " bytes; at most 4 MiB (it is refused, not truncated)");
        }
        return document;
    }
}
