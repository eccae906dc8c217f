package dev.lomicontrol.tools.editor;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The editor tools: each declared once, with its input and output records. */
public final class EditorSpecs {

    private EditorSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
