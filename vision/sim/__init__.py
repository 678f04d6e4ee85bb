"""The synthetic table: what the demo, the tests and the benchmarks show the camera instead of a
real table. A script of moves (:mod:`vision.sim.script`) becomes a scene, what lies where and when
(:mod:`vision.sim.scene`), which the synthetic camera (:mod:`vision.sim.synthetic`) draws into
frames with a real camera's faults (tilt, blur, noise, glare, flicker, JPEG). Nothing of the live
pipeline imports it; the frame sources open a scripted scene (``synthetic:SCRIPT``) for the demo.
"""
