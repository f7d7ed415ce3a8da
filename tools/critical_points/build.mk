# The calculator is regspill's occupancy model.
critical_points_LIBS := bench_regspill.a
