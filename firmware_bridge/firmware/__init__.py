"""The reference firmware: MicroPython for a Raspberry Pi Pico with up to eight RC522 readers.

These files are copied flat onto the Pico (``mpremote cp firmware_bridge/firmware/*.py :``) and
import each other by plain name (``import ct1``); the host never imports them. The tests run
``main.py`` itself on the real MicroPython interpreter (and the modules on CPython too) against a
simulated ``machine`` module and RC522 chips. See docs/firmware_bridge.md for wiring.
"""
