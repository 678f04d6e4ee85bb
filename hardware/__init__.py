"""Raspberry Pi peripherals: buttons, seat LEDs and the buzzer (gpiozero), and the displays
(luma panels, HDMI, terminal, PNG) that render a :class:`hardware.view.TableView`."""
