/**
 * The workspace, project and panel tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.layout;

import org.jspecify.annotations.NullMarked;
