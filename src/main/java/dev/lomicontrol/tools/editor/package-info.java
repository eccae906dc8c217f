/**
 * The editor tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.editor;

import org.jspecify.annotations.NullMarked;
