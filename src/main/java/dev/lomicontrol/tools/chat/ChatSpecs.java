package dev.lomicontrol.tools.chat;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The chat tools: each declared once, with its input and output records. */
public final class ChatSpecs {

    private ChatSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
