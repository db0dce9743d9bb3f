"""Statistics over simulation datasets: rates and means with their intervals.

Every figure carries an interval: rates the Wilson score interval, means a normal
interval from their standard error.  This layer reads datasets (``prefa_sim.sim.dataset``)
and never the solver.
"""
